import { and, eq, ne, sql } from "drizzle-orm";
import type { Actor } from "../platform/actor";
import { db } from "../platform/db/client";
import { profiles } from "../platform/db/schema";
import { consumeLink, findLink, issueLink } from "../platform/email-links";
import { env } from "../platform/env";
import { ConflictError, NotFoundError } from "../platform/errors";
import { sendMailLater } from "../platform/mail";
import { actionMail, mailSender } from "../platform/mail-layout";
import { takeMailQuota } from "../platform/throttle";
import { writeCards } from "./card-writer";
import { EMAIL_TAKEN } from "./schemas";

/**
 * A member's card shows only an address they receive mail at
 * (docs/decisions/009-mailbox-owner-decides.md): their account's address, or one they confirm by
 * opening a link sent to it while signed in. Otherwise anyone could put a
 * colleague's address on their own card, and the colleague's card could
 * never be claimed.
 */
export function needsCardEmailProof(actor: Actor, newEmail: string, currentEmail: string): boolean {
  if (actor.role === "admin") return false;
  const next = newEmail.toLowerCase();
  return next !== currentEmail.toLowerCase() && next !== actor.user.email.toLowerCase();
}

export type CardEmailRequest = { outcome: "sent" } | { outcome: "too-many" };

/** Sends the confirmation link for a new card address (the newest link replaces older ones). */
export async function requestCardEmail(actor: Actor, email: string): Promise<CardEmailRequest> {
  if (!(await takeMailQuota("card-email", email))) return { outcome: "too-many" };
  const { token } = await issueLink(db, { userId: actor.user.id, purpose: "card-email", email });
  await sendCardEmailMail(email, `${env.PUBLIC_URL}/account/card-email?${new URLSearchParams({ token })}`);
  return { outcome: "sent" };
}

/** The address a live card-email link of this member would put on their card, or null. */
export async function pendingCardEmail(actor: Actor, token: string): Promise<string | null> {
  const link = await findLink(token, "card-email");
  return link && link.userId === actor.user.id ? link.email : null;
}

/** Puts the confirmed address on the member's own card. Only the member who asked, signed in, can. */
export async function confirmCardEmail(actor: Actor, token: string) {
  return await writeCards({ kind: "owner" }, async (cards) => {
    const { tx } = cards;
    const link = await findLink(token, "card-email", tx);
    if (!link || link.userId !== actor.user.id) throw new NotFoundError("link");
    const [card] = await tx
      .select({ id: profiles.id })
      .from(profiles)
      .where(eq(profiles.userId, actor.user.id))
      .for("update");
    if (!card) throw new NotFoundError("profile");
    const [taken] = await tx
      .select({ id: profiles.id })
      .from(profiles)
      .where(and(sql`lower(${profiles.email}) = ${link.email.toLowerCase()}`, ne(profiles.id, card.id)))
      .limit(1);
    if (taken) throw new ConflictError({ email: [EMAIL_TAKEN] });
    if (!(await consumeLink(tx, link))) throw new NotFoundError("link");
    await cards.update({ id: card.id, label: link.email }, { email: link.email });
    return { profileId: card.id, email: link.email };
  });
}

/** The mail that proves a card's new address reaches whoever asked for it. */
async function sendCardEmailMail(to: string, link: string) {
  const sender = await mailSender();
  const { name } = sender;
  sendMailLater(
    actionMail({
      sender,
      to,
      subject: `Confirm the email address for your ${name} card`,
      greeting: "Hello,",
      body: `A member asked to show this address on their ${name} business card. If it was you, open the link below while signed in to ${name}: the card shows the address once you do.`,
      action: "Show this address on my card",
      link,
      footer:
        "The link works for 24 hours. If it was not you, ignore this message: no card shows this address without it.",
    }),
  );
}
