import { and, isNull, sql } from "drizzle-orm";
import type { InvitationSummary } from "~/lib/dashboard";
import { fullName } from "~/lib/names";
import type { Reach } from "../access/scope";
import { db } from "../platform/db/client";
import { invitations, profiles } from "../platform/db/schema";
import { invitationPreview, queuedInvitationCount } from "./invitations";
import { failedJobs } from "./mail-queue";

/** How many of the people an invitation to all would reach are named before it is sent. */
const FIRST_NAMED = 3;

/**
 * What profile management shows about invitations: who within reach is left to invite or remind, and
 * (to administrators of the whole site, who run the mail queue) mail that failed.
 */
export async function invitationSummary({ cards }: Reach, siteWide: boolean): Promise<InvitationSummary> {
  const [[counts], failed, firstNotInvited, queued, preview] = await Promise.all([
    db
      .select({
        notInvited: sql<number>`count(*) filter (where ${invitations.profileId} is null)::int`,
        invitedUnclaimed: sql<number>`count(*) filter (where ${invitations.profileId} is not null)::int`,
      })
      .from(profiles)
      .leftJoin(invitations, sql`${invitations.profileId} = ${profiles.id}`)
      .where(and(cards, isNull(profiles.userId), isNull(profiles.deactivatedAt), isNull(invitations.stoppedAt))),
    siteWide ? failedJobs(20) : { rows: [], count: 0 },
    // Who "Invite all" would reach first, named in its confirmation, in the order it sends.
    db
      .select({ firstName: profiles.firstName, lastName: profiles.lastName })
      .from(profiles)
      .leftJoin(invitations, sql`${invitations.profileId} = ${profiles.id}`)
      .where(and(cards, isNull(profiles.userId), isNull(profiles.deactivatedAt), isNull(invitations.profileId)))
      .orderBy(profiles.createdAt, profiles.id)
      .limit(FIRST_NAMED),
    siteWide ? queuedInvitationCount() : 0,
    invitationPreview(),
  ]);
  return {
    notInvited: counts?.notInvited ?? 0,
    invitedUnclaimed: counts?.invitedUnclaimed ?? 0,
    firstNotInvited: firstNotInvited.map(fullName),
    failed: failed.rows.map(({ runAt: _runAt, kind, ...row }) => ({
      ...row,
      kind: kind === "reminder" ? ("reminder" as const) : ("invitation" as const),
    })),
    failedCount: failed.count,
    queued,
    preview,
  };
}

/** Whether a card was invited before: inviting it again is a reminder (invitations/invitations.ts). */
export async function wasInvited(profileId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: invitations.profileId })
    .from(invitations)
    .where(sql`${invitations.profileId} = ${profileId}`);
  return row !== undefined;
}
