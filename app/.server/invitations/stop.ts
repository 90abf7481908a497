import { timingSafeEqual } from "node:crypto";
import { and, eq, inArray, isNull } from "drizzle-orm";
import { db } from "../platform/db/client";
import { invitations, mailJobs } from "../platform/db/schema";
import { env } from "../platform/env";
import { keyedHash } from "../platform/tokens";
import { INVITATION_KINDS } from "./mail-queue";

/**
 * Every invitation and reminder carries a link that stops them for good
 * (and the `List-Unsubscribe` headers a mail program offers as a button).
 * The link names the card and is signed with the server's secret, so it
 * needs no table and nobody can stop another person's invitations.
 */

function keyFor(profileId: string): string {
  return keyedHash("invitation-stop", profileId).slice("invitation-stop:".length);
}

function isKeyOf(profileId: string, key: string): boolean {
  const expected = Buffer.from(keyFor(profileId));
  const given = Buffer.from(key);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The address that stops a card's invitations. */
export function stopInvitationsUrl(profileId: string): string {
  return `${env.PUBLIC_URL}/invitations/stop?${new URLSearchParams({ card: profileId, key: keyFor(profileId) })}`;
}

export type StopState = "invalid" | "active" | "stopped";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a stop link is genuine, and whether its invitations are stopped already. */
export async function stopState(profileId: string, key: string): Promise<StopState> {
  if (!UUID.test(profileId) || !isKeyOf(profileId, key)) return "invalid";
  const [row] = await db
    .select({ stoppedAt: invitations.stoppedAt })
    .from(invitations)
    .where(eq(invitations.profileId, profileId));
  if (!row) return "invalid";
  return row.stoppedAt ? "stopped" : "active";
}

/** Stops a card's invitations and reminders, the mails waiting to leave included. */
export async function stopInvitations(profileId: string, key: string, now = new Date()): Promise<StopState> {
  const state = await stopState(profileId, key);
  if (state !== "active") return state;
  await db.transaction(async (tx) => {
    await tx
      .update(invitations)
      .set({ stoppedAt: now })
      .where(and(eq(invitations.profileId, profileId), isNull(invitations.stoppedAt)));
    await tx
      .delete(mailJobs)
      .where(
        and(
          eq(mailJobs.profileId, profileId),
          inArray(mailJobs.status, ["pending", "failed"]),
          inArray(mailJobs.kind, INVITATION_KINDS),
        ),
      );
  });
  return "stopped";
}
