import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import { z } from "zod";
import { LEAD_CONSENT_VERSION, LEAD_LIMITS, type LeadSource, leadConsentText } from "~/lib/leads";
import { fullName } from "~/lib/names";
import { takeMailQuota } from "../accounts/throttle";
import { keyedHash } from "../accounts/tokens";
import { db } from "../db/client";
import { leads, mailJobs, throttleEvents } from "../db/schema";
import { env } from "../env";
import { wakeMailQueue } from "../invitations/mail-queue";
import { EmailSchema, OptionalTextSchema, PhoneSchema, TextSchema, tooLongMessage } from "../validation";
// The renderers of the mails a lead queues, registered with the queue wherever leads are taken.
import "./mails";
import { leadRetentionMonths } from "./retention";

/**
 * A visitor shares their details back from a card (docs/decisions/034-leads.md).
 * Bots are dropped quietly (a filled hidden field, a form sent sooner than a
 * person could fill it, or a stamp this server never gave): they are answered
 * as a person is, and nothing is stored or sent. People are limited per
 * network and card, and each card takes a bounded number an hour.
 */

/** The quickest a person fills the form; anything sooner is a script. */
export const MIN_FILL_MS = 3_000;
/** A form older than this is shown again to be checked and sent anew. */
const MAX_FORM_AGE_MS = 24 * 60 * 60_000;
/** Submissions from one network to one card in the window, at most. */
export const LEADS_PER_NETWORK = 5;
const NETWORK_WINDOW_MS = 10 * 60_000;
/** Leads one card takes in an hour at most, from everyone: its owner's mailbox is not a target. */
const LEADS_PER_CARD_PER_HOUR = 60;

/** The hidden field a person never fills (components/forms.tsx `Honeypot`). */
export const HONEYPOT_FIELD = "website_url";

/** The stamp a form carries: when it was shown, signed so that only this server makes one. */
export function formStamp(profileId: string, now = Date.now()): string {
  return `${now}.${stampSignature(profileId, now)}`;
}

function stampSignature(profileId: string, at: number) {
  return createHmac("sha256", env.AUTH_SECRET).update(`lead-form\n${profileId}\n${at}`).digest("base64url");
}

/** How old a form is, by its stamp; null when the stamp is not one this server gave for this card. */
function formAge(stamp: string, profileId: string, now: number): number | null {
  const match = /^(\d{13})\.([A-Za-z0-9_-]{43})$/.exec(stamp);
  if (!match) return null;
  const at = Number(match[1]);
  const expected = Buffer.from(stampSignature(profileId, at));
  const given = Buffer.from(match[2] as string);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return now - at;
}

const optional = (max: number, label: string, options: { multiline?: boolean } = {}) =>
  OptionalTextSchema(max, label, options);

export const LeadSchema = z
  .object({
    name: TextSchema("Name").pipe(
      z.string().min(1, "Enter your name").max(LEAD_LIMITS.name, tooLongMessage("Name", LEAD_LIMITS.name)),
    ),
    email: z
      .string({ message: "Enter the email as text" })
      .optional()
      .transform((value) => (value?.trim() ? value : null))
      .pipe(EmailSchema.nullable()),
    phone: PhoneSchema.transform((value) => (value ? value : null)),
    company: optional(LEAD_LIMITS.company, "Company"),
    title: optional(LEAD_LIMITS.title, "Job title"),
    message: optional(LEAD_LIMITS.message, "Note", { multiline: true }),
    consent: z.literal("yes", { message: "Tick the box to agree, or your details cannot be sent" }),
    wantsCard: z
      .enum(["", "yes"])
      .optional()
      .transform((value) => value === "yes"),
  })
  .superRefine((values, context) => {
    if (!values.email && !values.phone) {
      context.addIssue({ code: "custom", path: ["email"], message: "Enter an email address or a phone number" });
    }
    if (values.wantsCard && !values.email) {
      context.addIssue({
        code: "custom",
        path: ["wantsCard"],
        message: "Enter your email address to receive the contact card",
      });
    }
  });

export type LeadInput = z.infer<typeof LeadSchema>;

/** The card a lead is for, as its form and mails name it. */
export type LeadCard = {
  id: string;
  firstName: string;
  lastName: string;
  /** Where the owner's mail goes. */
  email: string;
  /** Its brand's name, else the company's. */
  company: string;
};

export type SubmitOutcome =
  | { kind: "stored"; id: string }
  /** A bot: answered as a person is, with nothing stored or sent. */
  | { kind: "dropped" }
  /** The form is too old to trust its timing: shown again, filled in, to be sent anew. */
  | { kind: "expired" }
  | { kind: "too-many" };

/** The consent the visitor reads on the form for this card, as it is stored with their lead. */
export async function consentFor(card: LeadCard) {
  return leadConsentText(fullName(card), card.company, await leadRetentionMonths());
}

async function countSince(key: string, since: Date) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(throttleEvents)
    .where(and(eq(throttleEvents.key, key), gt(throttleEvents.createdAt, since)));
  return row?.n ?? 0;
}

/**
 * Takes a submission the form's checks passed: drops bots, limits senders,
 * and stores the lead with its mails in one transaction (the mail queue sends
 * each once, whatever restarts).
 */
export async function submitLead(options: {
  card: LeadCard;
  input: LeadInput;
  stamp: string;
  honeypot: string;
  source: LeadSource;
  /** The sender's network address (from the proxy's header), for the limit. */
  ip: string | null;
  now?: Date;
}): Promise<SubmitOutcome> {
  const { card, input, source } = options;
  const now = options.now ?? new Date();
  const age = formAge(options.stamp, card.id, now.getTime());
  const looksLikeBot = options.honeypot.trim() !== "" || age === null || age < MIN_FILL_MS;

  const networkKey = keyedHash("lead-network", `${options.ip ?? "unknown"}\n${card.id}`);
  const cardKey = keyedHash("lead-card", card.id);
  const [fromNetwork, forCard] = await Promise.all([
    countSince(networkKey, new Date(now.getTime() - NETWORK_WINDOW_MS)),
    countSince(cardKey, new Date(now.getTime() - 60 * 60_000)),
  ]);
  if (fromNetwork >= LEADS_PER_NETWORK || forCard >= LEADS_PER_CARD_PER_HOUR) return { kind: "too-many" };
  // A bot counts against its network too, so a flood of them meets the limit.
  await db.insert(throttleEvents).values({ key: networkKey, createdAt: now });
  if (looksLikeBot) return { kind: "dropped" };
  if (age > MAX_FORM_AGE_MS) return { kind: "expired" };
  await db.insert(throttleEvents).values({ key: cardKey, createdAt: now });

  const consentText = await consentFor(card);
  // The contact card goes to an address a few times an hour at most, whoever asks for it.
  const sendCard = input.wantsCard && input.email !== null && (await takeMailQuota("lead-card", input.email));
  const id = await db.transaction(async (tx) => {
    const [lead] = await tx
      .insert(leads)
      .values({
        profileId: card.id,
        name: input.name,
        email: input.email,
        phone: input.phone,
        company: input.company,
        title: input.title,
        message: input.message,
        source,
        consentVersion: LEAD_CONSENT_VERSION,
        consentText,
        wantsCard: input.wantsCard,
        createdAt: now,
      })
      .returning({ id: leads.id });
    const leadId = (lead as { id: string }).id;
    // The owner's address is read again when the mail is sent: a changed address gets it.
    const jobs: (typeof mailJobs.$inferInsert)[] = [{ kind: "lead", profileId: card.id, leadId, email: card.email }];
    if (sendCard && input.email) jobs.push({ kind: "lead-card", profileId: card.id, leadId, email: input.email });
    await tx.insert(mailJobs).values(jobs);
    return leadId;
  });
  wakeMailQueue();
  return { kind: "stored", id };
}
