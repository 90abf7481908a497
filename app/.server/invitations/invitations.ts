import { randomUUID } from "node:crypto";
import { and, eq, inArray, isNull, lte, type SQL, sql } from "drizzle-orm";
import { fullName } from "~/lib/names";
import { recordAdminAction } from "../audit/record";
import type { Actor } from "../platform/actor";
import { db, type Queryable } from "../platform/db/client";
import { emailLinks, invitations, type MailJob, mailJobs, profiles, siteSettings } from "../platform/db/schema";
import { findLink } from "../platform/email-links";
import { env } from "../platform/env";
import { escapeHtml, type MailMessage, sendMail } from "../platform/mail";
import { mailDocument, mailSender, smallPrintLink } from "../platform/mail-layout";
import { takeMailQuota } from "../platform/throttle";
import { randomToken, tokenHash } from "../platform/tokens";
import { INVITATION_KINDS, registerMailJob, wakeMailQueue } from "./mail-queue";
import { stopInvitationsUrl } from "./stop";

const ONE_DAY_MS = 24 * 60 * 60 * 1000;
/** How long an invitation's link works. */
const INVITATION_LIFETIME_DAYS = 14;
/** A card gets at most one invitation or reminder in this time, however often an administrator asks. */
export const RESEND_AFTER_MS = 60 * 60 * 1000;

/** Automatic reminders: off unless switched on; then after 7 days, at most 3 times, unless set otherwise. */
export const REMINDER_DEFAULTS = { after: 7, max: 3 } as const;

export type InvitationScope =
  /** These cards (the unclaimed ones among them). */
  | { ids: string[] }
  /** Every unclaimed card never invited. */
  | "not-invited"
  /** Every unclaimed card already invited. */
  | "invited";

export type IssueResult = { queued: number };

/**
 * Every invitation and reminder is issued here: the card's invitation state
 * is written and a mail job queued, in one transaction. The link is made when
 * the job is sent, and replaces the card's earlier link.
 */
export async function issueInvitationMails(options: {
  kind: MailJob["kind"];
  scope: InvitationScope;
  now?: Date;
  /** The administrator who asked, for the audit log; automatic reminders have none. */
  actor?: Actor;
  /** The cards the administrator may invite (profiles/scope.ts); every card when absent. */
  within?: SQL;
}): Promise<IssueResult> {
  const now = options.now ?? new Date();
  const issued = await db.transaction(async (tx) => {
    const targets = await selectTargets(tx, options.scope, now, options.within);
    if (targets.length === 0) return [];
    // Inviting a card again is a reminder: it keeps its first invitation's date, and counts as one.
    const fresh = options.kind === "invitation" ? targets.filter((target) => !target.invited) : [];
    const again = options.kind === "invitation" ? targets.filter((target) => target.invited) : targets;
    if (fresh.length > 0) {
      await tx
        .insert(invitations)
        .values(fresh.map(({ id }) => ({ profileId: id, invitedAt: now, lastSentAt: now, remindersSent: 0 })))
        // Invited meanwhile by another request: this one's mail replaces that one's.
        .onConflictDoUpdate({ target: invitations.profileId, set: { lastSentAt: now } });
      await queueJobs(tx, "invitation", fresh, now);
    }
    if (again.length > 0) {
      await tx
        .update(invitations)
        .set({ lastSentAt: now, remindersSent: sql`${invitations.remindersSent} + 1` })
        .where(
          inArray(
            invitations.profileId,
            again.map(({ id }) => id),
          ),
        );
      await queueJobs(tx, "reminder", again, now);
    }
    if (options.actor) {
      for (const [sent, action] of [
        [fresh, "invite"],
        [again, "remind"],
      ] as const) {
        // Several people at once are one row of the audit log, which opens to each of them.
        const batch = sent.length > 1 ? randomUUID() : undefined;
        for (const target of sent) {
          await recordAdminAction(tx, {
            actor: options.actor,
            action,
            target: { kind: "profile", id: target.id, label: fullName(target) },
            batch,
          });
        }
      }
    }
    return targets;
  });
  if (issued.length) wakeMailQueue();
  return { queued: issued.length };
}

async function selectTargets(tx: Queryable, scope: InvitationScope, now: Date, within: SQL = sql`true`) {
  // Deactivated cards are not invited: nobody may claim them until they are reactivated. Nor is
  // anyone who asked for no more invitations, or who was sent one within the hour.
  const unclaimed = and(
    within,
    isNull(profiles.userId),
    isNull(profiles.deactivatedAt),
    sql`not exists (select 1 from ${invitations} where ${invitations.profileId} = ${profiles.id}
      and (${invitations.stoppedAt} is not null or ${invitations.lastSentAt} > ${new Date(now.getTime() - RESEND_AFTER_MS).toISOString()}::timestamptz))`,
  );
  const invited = sql`exists (select 1 from ${invitations} where ${invitations.profileId} = ${profiles.id})`;
  const where =
    scope === "not-invited"
      ? and(unclaimed, sql`not ${invited}`)
      : scope === "invited"
        ? and(unclaimed, invited)
        : scope.ids.length
          ? and(unclaimed, inArray(profiles.id, scope.ids))
          : sql`false`;
  return tx
    .select({
      id: profiles.id,
      email: profiles.email,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      invited: sql<boolean>`${invited}`,
    })
    .from(profiles)
    .where(where)
    .orderBy(profiles.createdAt, profiles.id)
    .for("update");
}

/** A new job replaces any of the card's invitation mails that have not started sending (never a lead's). */
async function queueJobs(tx: Queryable, kind: MailJob["kind"], targets: { id: string; email: string }[], now: Date) {
  const ids = targets.map((target) => target.id);
  await tx
    .delete(mailJobs)
    .where(
      and(
        inArray(mailJobs.profileId, ids),
        inArray(mailJobs.status, ["pending", "failed"]),
        inArray(mailJobs.kind, INVITATION_KINDS),
      ),
    );
  await tx
    .insert(mailJobs)
    .values(targets.map((target) => ({ kind, profileId: target.id, email: target.email, runAt: now, createdAt: now })));
}

type ReminderSettings = { enabled: boolean; afterDays: number; maxCount: number };

async function getReminderSettings(): Promise<ReminderSettings> {
  const [row] = await db
    .select({
      enabled: siteSettings.autoReminders,
      afterDays: siteSettings.reminderAfterDays,
      maxCount: siteSettings.reminderMaxCount,
    })
    .from(siteSettings)
    .where(eq(siteSettings.id, 1));
  return {
    enabled: row?.enabled ?? false,
    afterDays: row?.afterDays ?? REMINDER_DEFAULTS.after,
    maxCount: row?.maxCount ?? REMINDER_DEFAULTS.max,
  };
}

/**
 * The automatic reminders due at `now`: an invited, unclaimed card whose last
 * mail is `afterDays` old and that has had fewer than `maxCount` reminders.
 * The card's row is updated only if it is still due, so two processes
 * running this at once remind each card once.
 */
export async function sendDueReminders(now = new Date()): Promise<IssueResult> {
  const settings = await getReminderSettings();
  if (!settings.enabled) return { queued: 0 };
  const cutoff = new Date(now.getTime() - settings.afterDays * ONE_DAY_MS);
  const issued = await db.transaction(async (tx) => {
    const due = await tx
      .update(invitations)
      .set({ lastSentAt: now, remindersSent: sql`${invitations.remindersSent} + 1` })
      .where(
        and(
          lte(invitations.lastSentAt, cutoff),
          isNull(invitations.stoppedAt),
          sql`${invitations.remindersSent} < ${settings.maxCount}`,
          sql`exists (select 1 from ${profiles} where ${profiles.id} = ${invitations.profileId} and ${profiles.userId} is null and ${profiles.deactivatedAt} is null)`,
        ),
      )
      .returning({ id: invitations.profileId });
    if (due.length === 0) return [];
    const targets = await tx
      .select({ id: profiles.id, email: profiles.email })
      .from(profiles)
      .where(
        inArray(
          profiles.id,
          due.map((row) => row.id),
        ),
      );
    await queueJobs(tx, "reminder", targets, now);
    return targets;
  });
  if (issued.length) wakeMailQueue();
  return { queued: issued.length };
}

// ── The link ─────────────────────────────────────────────────────────────────

/** The address an invitation's link opens. */
function invitationUrl(token: string): string {
  return `${env.PUBLIC_URL}/auth/invitation?token=${encodeURIComponent(token)}`;
}

/** A new link for the card, replacing its earlier one (which stops working). Only the hash is kept. */
async function issueInvitationLink(tx: Queryable, card: { id: string; email: string }, now: Date): Promise<string> {
  const token = randomToken();
  await tx.delete(emailLinks).where(and(eq(emailLinks.profileId, card.id), eq(emailLinks.purpose, "invitation")));
  await tx.insert(emailLinks).values({
    tokenHash: tokenHash(token),
    purpose: "invitation",
    profileId: card.id,
    email: card.email.toLowerCase(),
    expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_DAYS * ONE_DAY_MS),
    createdAt: now,
  });
  return token;
}

/** The live invitation a token opens, with its card, or null (unknown, replaced, used, expired, or the card claimed). */
export async function findInvitation(token: string, tx: Queryable = db, now = new Date()) {
  const link = await findLink(token, "invitation", tx, now);
  if (!link?.profileId) return null;
  const [card] = await tx
    .select()
    .from(profiles)
    .where(and(eq(profiles.id, link.profileId), isNull(profiles.userId), isNull(profiles.deactivatedAt)))
    .limit(1);
  if (!card || card.email.toLowerCase() !== link.email) return null;
  return { link, card };
}

// ── The mail ─────────────────────────────────────────────────────────────────

/**
 * The invitation or reminder, in the company's name, logo and colour. No name
 * the card holds is written into it: the person has not proven this address
 * yet, and the card's name was typed by an administrator, not by them.
 */
async function invitationMail(options: {
  kind: MailJob["kind"];
  profileId: string;
  to: string;
  brandId: number | null;
  link: string;
}): Promise<MailMessage> {
  const from = await mailSender(options.brandId);
  const reminder = options.kind === "reminder";
  const subject = reminder
    ? `Reminder: your ${from.name} business card is waiting for you`
    : `${from.name} has prepared a business card for you`;
  const body = reminder
    ? `${from.name} prepared a digital business card for you, and it is still waiting. Open the link below, choose your password, and the card is yours.`
    : `${from.name} has prepared a digital business card for you. Open the link below, choose your password, and the card is yours: you can edit it, share it and show its QR code.`;
  const action = "Claim my card";
  const footer = `The link works once and for ${INVITATION_LIFETIME_DAYS} days; only the newest link we sent works. If you already have an account with this address, the link adds the card to it and your password stays as it is.`;
  const stop = stopInvitationsUrl(options.profileId);
  const stopText = "Not for you, or no more of these mails? Stop invitations to this address";
  const text = ["Hello,", "", body, "", `${action}: ${options.link}`, "", footer, "", `${stopText}: ${stop}`].join(
    "\n",
  );
  const html = mailDocument({
    sender: from,
    blocks: ["<p>Hello,</p>", `<p>${escapeHtml(body)}</p>`],
    action: { label: action, link: options.link },
    smallPrint: [`Or open this link: ${escapeHtml(options.link)}`, escapeHtml(footer), smallPrintLink(stop, stopText)],
  });
  // Mail programs offer these as an unsubscribe button; the POST stops at once (RFC 8058).
  const headers = { "List-Unsubscribe": `<${stop}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
  return { to: options.to, subject, text, html, link: options.link, headers };
}

/** The queue's renderer: a fresh link for a card that is still unclaimed, or nothing to send. */
async function renderInvitationJob(job: MailJob, now: Date): Promise<MailMessage | null> {
  if (!job.profileId) return null;
  const profileId = job.profileId;
  const made = await db.transaction(async (tx) => {
    const [card] = await tx
      .select({ id: profiles.id, email: profiles.email, brandId: profiles.companyBrandId })
      .from(profiles)
      .where(
        and(
          eq(profiles.id, profileId),
          isNull(profiles.userId),
          isNull(profiles.deactivatedAt),
          sql`not exists (select 1 from ${invitations} where ${invitations.profileId} = ${profiles.id} and ${invitations.stoppedAt} is not null)`,
        ),
      )
      .for("update");
    if (!card) return null;
    return { card, token: await issueInvitationLink(tx, card, now) };
  });
  if (!made) return null;
  return invitationMail({
    kind: job.kind,
    profileId,
    to: made.card.email,
    brandId: made.card.brandId,
    link: invitationUrl(made.token),
  });
}

registerMailJob("invitation", renderInvitationJob);
registerMailJob("reminder", renderInvitationJob);

/** Where each person's own link stands in the preview: every mail carries a link of its own. */
const PREVIEW_LINK = "(each person's own link)";

/** The invitation as it will arrive, in the company's name: its subject and text, for the confirmation. */
export async function invitationPreview(): Promise<{ subject: string; text: string }> {
  const mail = await previewMail(null);
  return { subject: mail.subject, text: mail.text.replace(/^(Not for you.*: ).*$/m, "$1(a link of its own)") };
}

/** The invitation's HTML as a card of `brandId` (or of no brand) receives it, with a placeholder for its link. */
export async function invitationDocument(brandId: number | null): Promise<{ subject: string; html: string }> {
  const mail = await previewMail(brandId);
  return { subject: mail.subject, html: mail.html ?? "" };
}

function previewMail(brandId: number | null) {
  return invitationMail({ kind: "invitation", profileId: "preview", to: "", brandId, link: PREVIEW_LINK });
}

/**
 * Sends the invitation to the administrator who asks, marked as a test, with
 * a link that claims nothing: how it looks in their own mail program before
 * everyone gets it. At most a few an hour.
 */
export async function sendTestInvitation(actor: Actor, brandId: number | null): Promise<"sent" | "too-many"> {
  if (!(await takeMailQuota("test-invitation", actor.user.email))) return "too-many";
  const mail = await invitationMail({
    kind: "invitation",
    profileId: "test",
    to: actor.user.email,
    brandId,
    link: `${env.PUBLIC_URL}/auth/invitation?token=test`,
  });
  await sendMail({ ...mail, subject: `[Test] ${mail.subject}` });
  return "sent";
}

/**
 * Cancels the invitations and reminders still waiting in the queue: nothing of
 * them is sent. A card whose first invitation is cancelled is "Not invited"
 * again; a cancelled reminder is not counted. Mail already on its way goes.
 */
export async function cancelQueuedInvitations(actor: Actor): Promise<number> {
  return await db.transaction(async (tx) => {
    const cancelled = await tx
      .delete(mailJobs)
      .where(and(eq(mailJobs.status, "pending"), inArray(mailJobs.kind, ["invitation", "reminder"])))
      .returning({ profileId: mailJobs.profileId, kind: mailJobs.kind });
    const firsts = cancelled
      .filter((job) => job.kind === "invitation" && job.profileId)
      .map((job) => job.profileId as string);
    const reminders = cancelled
      .filter((job) => job.kind === "reminder" && job.profileId)
      .map((job) => job.profileId as string);
    if (firsts.length) {
      // Only where no invitation mail to the card went out before.
      await tx
        .delete(invitations)
        .where(
          and(
            inArray(invitations.profileId, firsts),
            sql`not exists (select 1 from ${mailJobs} j where j.profile_id = ${invitations.profileId} and j.status <> 'pending' and j.kind in ('invitation', 'reminder'))`,
          ),
        );
    }
    if (reminders.length) {
      await tx
        .update(invitations)
        .set({ remindersSent: sql`greatest(${invitations.remindersSent} - 1, 0)` })
        .where(inArray(invitations.profileId, reminders));
    }
    if (cancelled.length) {
      await recordAdminAction(tx, {
        actor,
        action: "discard",
        target: { kind: "mail", id: null, label: `${cancelled.length} queued invitation mails` },
      });
    }
    return cancelled.length;
  });
}

/** How many invitation mails wait in the queue, not yet sent. */
export async function queuedInvitationCount(): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(mailJobs)
    .where(and(eq(mailJobs.status, "pending"), inArray(mailJobs.kind, ["invitation", "reminder"])));
  return row?.count ?? 0;
}
