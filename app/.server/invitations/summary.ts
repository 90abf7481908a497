import { and, isNull, sql } from "drizzle-orm";
import type { InvitationSummary } from "~/lib/dashboard";
import { db } from "../db/client";
import { invitations, profiles } from "../db/schema";
import { failedJobs } from "./mail-queue";

/** What profile management shows about invitations: who is left to invite or remind, and mail that failed. */
export async function invitationSummary(): Promise<InvitationSummary> {
  const [[counts], failed] = await Promise.all([
    db
      .select({
        notInvited: sql<number>`count(*) filter (where ${invitations.profileId} is null)::int`,
        invitedUnclaimed: sql<number>`count(*) filter (where ${invitations.profileId} is not null)::int`,
      })
      .from(profiles)
      .leftJoin(invitations, sql`${invitations.profileId} = ${profiles.id}`)
      .where(and(isNull(profiles.userId), isNull(profiles.deactivatedAt), isNull(invitations.stoppedAt))),
    failedJobs(20),
  ]);
  return {
    notInvited: counts?.notInvited ?? 0,
    invitedUnclaimed: counts?.invitedUnclaimed ?? 0,
    failed: failed.rows.map(({ runAt: _runAt, ...row }) => row),
    failedCount: failed.count,
  };
}
