import { and, eq, isNull, sql } from "drizzle-orm";
import { DEFAULT_LOCALE, isLocale } from "~/lib/i18n/locales";
import { fullName, greetingName } from "~/lib/names";
import { registerMailJob } from "../invitations/mail-queue";
import { db } from "../platform/db/client";
import { leads, type MailJob, profiles, users } from "../platform/db/schema";
import { env } from "../platform/env";
import { translate } from "../platform/i18n";
import { escapeHtml, type MailMessage } from "../platform/mail";
import { mailDocument, mailSender } from "../platform/mail-layout";
import { contactFileOf } from "../profiles/contact-file";
import { cardForViewer, getCardByUsername } from "../profiles/get-card";
import { cardUrl } from "../profiles/qr";
import { cardFileName } from "../profiles/vcard";

/**
 * A lead's two mails, made when the queue sends them: the lead to the card's
 * owner, and the owner's contact card to a visitor who asked for it. A lead
 * deleted meanwhile takes its mails with it; a deactivated card sends nothing.
 * What a visitor typed goes into the owner's mail escaped, and into no header
 * but the reply address (which the form's schema checked); the visitor's own
 * mail holds nothing they typed, so the form cannot send anyone a message.
 */

/** One line of a header: what a visitor typed, with anything that could end a line taken out. */
function oneLine(value: string, max = 80): string {
  const line = value.replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

async function leadOf(job: MailJob) {
  if (!job.leadId) return null;
  const [row] = await db
    .select({
      lead: leads,
      // A claimed card's lead goes to its owner's own account address, which only they change;
      // a card not yet claimed, to the address it was prepared for.
      owner: {
        firstName: profiles.firstName,
        lastName: profiles.lastName,
        email: sql<string>`coalesce(${users.email}, ${profiles.email})`,
        username: profiles.username,
        brandId: profiles.companyBrandId,
      },
    })
    .from(leads)
    .innerJoin(profiles, eq(profiles.id, leads.profileId))
    .leftJoin(users, eq(users.id, profiles.userId))
    .where(and(eq(leads.id, job.leadId), isNull(profiles.deactivatedAt)))
    .limit(1);
  return row ?? null;
}

async function renderLeadForOwner(job: MailJob): Promise<MailMessage | null> {
  const found = await leadOf(job);
  if (!found) return null;
  const { lead, owner } = found;
  const link = `${env.PUBLIC_URL}/leads`;
  const source = lead.source === "qr" ? "your QR code" : "your card";
  const rows: [string, string | null][] = [
    ["Name", lead.name],
    ["Email", lead.email],
    ["Phone", lead.phone],
    ["Company", lead.company],
    ["Job title", lead.title],
    ["Note", lead.message],
  ];
  const shown = rows.filter((row): row is [string, string] => Boolean(row[1]));
  const text = [
    `Hello ${greetingName(owner)},`,
    "",
    `${lead.name} shared their details with you from ${source}:`,
    "",
    ...shown.map(([label, value]) => `${label}: ${value}`),
    "",
    `All your leads: ${link}`,
  ].join("\n");
  const table = shown
    .map(
      ([label, value]) =>
        `<tr><td style="padding:4px 16px 4px 0;color:#4b5563;vertical-align:top">${label}</td><td style="padding:4px 0;white-space:pre-line">${escapeHtml(value)}</td></tr>`,
    )
    .join("");
  const html = mailDocument({
    sender: await mailSender(owner.brandId),
    blocks: [
      `<p>Hello ${escapeHtml(greetingName(owner))},</p>`,
      `<p>${escapeHtml(lead.name)} shared their details with you from ${source}:</p>`,
      `<table role="presentation" style="border-collapse:collapse">${table}</table>`,
    ],
    action: { label: "See all your leads", link },
  });
  return {
    to: owner.email,
    subject: `New contact from your card: ${oneLine(lead.name)}`,
    text,
    html,
    link,
    replyTo: lead.email ?? undefined,
    // A visitor's name and address stay out of the server's log: erasing them must leave nothing behind.
    private: true,
  };
}

async function renderCardForVisitor(job: MailJob): Promise<MailMessage | null> {
  const found = await leadOf(job);
  if (!found?.lead.email) return null;
  const stored = await getCardByUsername(found.owner.username);
  if (!stored) return null;
  // What anyone may see of the card, as its public contact file holds.
  const card = await cardForViewer(stored, null);
  const vcard = await contactFileOf(card);
  const name = fullName(card);
  const address = cardUrl(card.username);
  // In the language the visitor's form was in.
  const locale = isLocale(found.lead.locale) ? found.lead.locale : DEFAULT_LOCALE;
  const hello = translate(locale, "mail.card.hello");
  const body = translate(locale, "mail.card.body", { name });
  const link = translate(locale, "mail.card.link", { name });
  const text = [hello, "", body, "", `${link}: ${address}`].join("\n");
  const html = mailDocument({
    // No image in a visitor's mail: a picture fetched from this server would tell it the mail was read.
    sender: { ...(await mailSender(found.owner.brandId)), logoUrl: null },
    blocks: [`<p>${escapeHtml(hello)}</p>`, `<p>${escapeHtml(body)}</p>`],
    action: { label: link, link: address },
    locale,
  });
  return {
    to: found.lead.email,
    subject: translate(locale, "mail.card.subject", { name: oneLine(name) }),
    text,
    html,
    link: address,
    private: true,
    attachments: [{ filename: cardFileName(card, ".vcf"), content: vcard, contentType: "text/vcard; charset=utf-8" }],
  };
}

registerMailJob("lead", renderLeadForOwner);
registerMailJob("lead-card", renderCardForVisitor);
