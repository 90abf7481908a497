import { eq } from "drizzle-orm";
import { z } from "zod";
import { can, decide } from "~/lib/permissions";
import { changeableProfiles } from "../access/scope";
import type { Actor } from "../platform/actor";
import { db } from "../platform/db/client";
import { brands } from "../platform/db/schema";
import { ForbiddenError, NotFoundError } from "../platform/errors";
import {
  cancelQueuedInvitations,
  type IssueResult,
  invitationDocument,
  issueInvitationMails,
  sendTestInvitation,
} from "./invitations";
import { retryFailedJobs } from "./mail-queue";

/**
 * What an administrator asks of invitations on Manage Profiles: invite chosen
 * cards or everyone not yet invited, remind everyone invited who has not
 * claimed, and send again the mails that failed. The route reads the form and
 * words the outcome; each function here checks the actor may invite.
 */

const MAX_CHOSEN = 500;

/** The cards an administrator chose to invite: profile ids, one to 500 at once. */
export const ChosenProfileIdsSchema = z
  .array(z.uuid({ message: "One of the chosen profiles is not valid." }))
  .min(1, "Choose at least one profile to invite.")
  .max(MAX_CHOSEN, `Invite at most ${MAX_CHOSEN} chosen profiles at once.`);

/** Inviting cards: an administrator everyone, a brand administrator their brands' people. */
function assertMayInvite(actor: Actor) {
  if (!decide(actor, "invite:profile")) throw new ForbiddenError();
}

/** The mail queue's own work (failed mails, the queue) is the whole site's: administrators only. */
function assertMayRunMail(actor: Actor) {
  if (!can(actor.role, "invite:profile:any")) throw new ForbiddenError();
}

/**
 * Invites the chosen cards (ids parsed by `ChosenProfileIdsSchema`); claimed ones among them, and
 * any the actor may not invite, are skipped.
 */
export async function inviteChosenProfiles(options: { actor: Actor; profileIds: string[] }): Promise<IssueResult> {
  assertMayInvite(options.actor);
  return issueInvitationMails({
    kind: "invitation",
    scope: { ids: options.profileIds },
    actor: options.actor,
    within: changeableProfiles(options.actor, "invite"),
  });
}

/** Invites every unclaimed card never invited, of those the actor may invite. */
export async function inviteEveryoneNotInvited(options: { actor: Actor }): Promise<IssueResult> {
  assertMayInvite(options.actor);
  return issueInvitationMails({
    kind: "invitation",
    scope: "not-invited",
    actor: options.actor,
    within: changeableProfiles(options.actor, "invite"),
  });
}

/** Sends a reminder, with a fresh link, to every unclaimed card already invited, of those the actor may invite. */
export async function remindEveryoneInvited(options: { actor: Actor }): Promise<IssueResult> {
  assertMayInvite(options.actor);
  return issueInvitationMails({
    kind: "reminder",
    scope: "invited",
    actor: options.actor,
    within: changeableProfiles(options.actor, "invite"),
  });
}

/** Queues every mail that failed all its tries once more; answers how many. */
export async function retryFailedMails(options: { actor: Actor }): Promise<{ retried: number }> {
  assertMayRunMail(options.actor);
  return { retried: await retryFailedJobs(options.actor) };
}

/**
 * Checks the actor may see the invitation as `brandId`'s people receive it (no brand: as the
 * company's): an administrator any brand, a brand administrator theirs. A brand outside their
 * reach is as missing as one that does not exist.
 */
async function assertMayPreview(actor: Actor, brandId: number | null) {
  if (!decide(actor, "invite:profile", { brandId })) throw new NotFoundError("brand");
  if (brandId === null) return;
  const [brand] = await db.select({ id: brands.id }).from(brands).where(eq(brands.id, brandId));
  if (!brand) throw new NotFoundError("brand");
}

/** The invitation as a card of `brandId` (or of no brand) receives it, with a placeholder for its link. */
export async function previewInvitation(options: { actor: Actor; brandId: number | null }) {
  await assertMayPreview(options.actor, options.brandId);
  return invitationDocument(options.brandId);
}

/** Sends the invitation, as a card of `brandId` receives it, to the administrator, as a test. */
export async function sendInvitationTest(options: { actor: Actor; brandId: number | null }) {
  await assertMayPreview(options.actor, options.brandId);
  return sendTestInvitation(options.actor, options.brandId);
}

/** Cancels the invitation mails still waiting in the queue. */
export async function cancelQueuedMails(options: { actor: Actor }): Promise<number> {
  assertMayRunMail(options.actor);
  return cancelQueuedInvitations(options.actor);
}
