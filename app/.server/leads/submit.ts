import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import { z } from "zod";
import type { Locale } from "~/lib/i18n/locales";
import { LEAD_CONSENT_VERSION, LEAD_LIMITS, type LeadSource } from "~/lib/leads";
import { fullName } from "~/lib/names";
import type { MessageId } from "~/locales/en";
import { wakeMailQueue } from "../invitations/mail-queue";
import { db } from "../platform/db/client";
import { leads, mailJobs, throttleEvents } from "../platform/db/schema";
import { env } from "../platform/env";
import { translate } from "../platform/i18n";
import { takeMailQuota } from "../platform/throttle";
import { keyedHash } from "../platform/tokens";
import { hasForbiddenCharacters, isPhoneNumber } from "../platform/validation";
// The renderers of the mails a lead queues, registered with the queue wherever leads are taken.
import "./mails";
import { leadRetentionMonths, monthsAfter } from "./retention";

/**
 * A visitor shares their details back from a card (docs/decisions/034-leads.md).
 * Bots are dropped quietly (a filled hidden field, or a stamp this server
 * never gave): they are answered as a person is, and nothing is stored or
 * sent. A form sent sooner than a person could type it (a phone's autofill
 * can be that quick) is shown again to be sent once more, never dropped. People are limited per
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
/** Leads one network sends in an hour at most, to every card together: no one floods the whole company. */
const LEADS_PER_NETWORK_PER_HOUR = 20;

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

/** The fields a visitor fills in, each with its own words for a value too long. */
type LeadField = keyof typeof LEAD_LIMITS;

/**
 * The lead form's rules, its messages in the language the form is shown in
 * (the rules are the forms' shared ones: trimmed text without control
 * characters, an address, a number). Made once per language.
 */
function makeLeadSchema(locale: Locale) {
  const say = (id: MessageId, values?: Record<string, string | number>) => translate(locale, id, values);
  const tooLong = (field: LeadField) => say(`lead.error.tooLong.${field}`, { max: LEAD_LIMITS[field] });
  const text = (options: { multiline?: boolean } = {}) =>
    z
      .string({ message: say("lead.error.notText") })
      .refine((value) => !hasForbiddenCharacters(value, options), {
        message: say(options.multiline ? "lead.error.controlCharacters" : "lead.error.oneLine"),
        abort: true,
      })
      .transform((value) => value.trim());
  const optional = (field: LeadField, options: { multiline?: boolean } = {}) =>
    text(options)
      .pipe(z.string().max(LEAD_LIMITS[field], tooLong(field)))
      .optional()
      .transform((value) => (value ? value : null));
  return z
    .object({
      name: text().pipe(z.string().min(1, say("lead.error.name")).max(LEAD_LIMITS.name, tooLong("name"))),
      email: z
        .string({ message: say("lead.error.notText") })
        .optional()
        .transform((value) => (value?.trim() ? value : null))
        .pipe(
          text()
            .pipe(
              z
                .string()
                .max(LEAD_LIMITS.email, tooLong("email"))
                .pipe(z.email(say("lead.error.email"))),
            )
            .transform((value) => value.toLowerCase())
            .nullable(),
        ),
      phone: text()
        .pipe(
          z
            .string()
            .max(LEAD_LIMITS.phone, tooLong("phone"))
            .refine((value) => value === "" || isPhoneNumber(value), { message: say("lead.error.phone") }),
        )
        .optional()
        .transform((value) => (value ? value : null)),
      company: optional("company"),
      title: optional("title"),
      message: optional("message", { multiline: true }),
      consent: z.literal("yes", { message: say("lead.error.consent") }),
      wantsCard: z
        .enum(["", "yes"])
        .optional()
        .transform((value) => value === "yes"),
    })
    .superRefine((values, context) => {
      if (!values.email && !values.phone) {
        context.addIssue({ code: "custom", path: ["email"], message: say("lead.error.emailOrPhone") });
      }
      if (values.wantsCard && !values.email) {
        context.addIssue({ code: "custom", path: ["wantsCard"], message: say("lead.error.cardNeedsEmail") });
      }
    });
}

const leadSchemas = new Map<Locale, ReturnType<typeof makeLeadSchema>>();

/** The lead form's rules, with its messages in `locale`. */
export function leadSchema(locale: Locale) {
  let schema = leadSchemas.get(locale);
  if (!schema) {
    schema = makeLeadSchema(locale);
    leadSchemas.set(locale, schema);
  }
  return schema;
}

export type LeadInput = z.infer<ReturnType<typeof leadSchema>>;

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
  /** `cardSent`: the contact card the visitor asked for is on its way (not when their address had its share). */
  | { kind: "stored"; id: string; cardSent: boolean }
  /** A bot: answered as a person is, with nothing stored or sent. */
  | { kind: "dropped" }
  /** The form is too old to trust its timing: shown again, filled in, to be sent anew. */
  | { kind: "expired" }
  /** Sent sooner than a person types: shown again, filled in, to be sent once more. */
  | { kind: "too-soon" }
  | { kind: "too-many" };

/**
 * The consent a visitor gives by ticking the box, naming the card's owner and
 * company, in the language the form was shown in: stored with their lead as
 * they read it.
 */
function consentText(card: LeadCard, months: number, locale: Locale): string {
  return translate(locale, "lead.consent", { owner: fullName(card), company: card.company, months });
}

/** The consent the visitor reads on the form for this card, as it is stored with their lead. */
export async function consentFor(card: LeadCard, locale: Locale) {
  return consentText(card, await leadRetentionMonths(), locale);
}

type Tx = Parameters<Parameters<typeof db.transaction>[0]>[0];

async function countSince(tx: Tx, key: string, since: Date) {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(throttleEvents)
    .where(and(eq(throttleEvents.key, key), gt(throttleEvents.createdAt, since)));
  return row?.n ?? 0;
}

/**
 * Holds the keys for the rest of the transaction: a count and the event that
 * follows it are one step, so requests sent side by side cannot all pass a
 * limit that each of them alone would meet. Taken in one order, so two
 * requests never wait on each other's.
 */
async function holdKeys(tx: Tx, keys: string[]) {
  for (const key of [...keys].sort()) await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
}

/** The network a request came from: an IPv4 address, or an IPv6 /64 (what one subscriber is given). */
function networkOf(ip: string | null): string {
  if (!ip) return "unknown";
  if (!ip.includes(":") || /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip)) return ip.replace(/^::ffff:/i, "");
  const [head = "", tail = ""] = ip.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = ip.includes("::")
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
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
  /** The language the form was shown in: its consent is stored in it. */
  locale: Locale;
  /** The sender's network address (from the proxy's header), for the limit. */
  ip: string | null;
  now?: Date;
}): Promise<SubmitOutcome> {
  const { card, input, source } = options;
  const now = options.now ?? new Date();
  const age = formAge(options.stamp, card.id, now.getTime());
  const looksLikeBot = options.honeypot.trim() !== "" || age === null;

  const network = networkOf(options.ip);
  const networkKey = keyedHash("lead-network", `${network}\n${card.id}`);
  const everywhereKey = keyedHash("lead-network-all", network);
  const cardKey = keyedHash("lead-card", card.id);
  // A form is sent once: the same stamp again (a double press, a replay) is answered as sent, and nothing more is kept.
  const stampKey = keyedHash("lead-stamp", options.stamp);
  // Read before the transaction: on the embedded database nothing outside it runs until it ends.
  const months = await leadRetentionMonths();
  const consent = consentText(card, months, options.locale);

  const outcome = await db.transaction(async (tx): Promise<SubmitOutcome> => {
    await holdKeys(tx, [networkKey, everywhereKey, cardKey, stampKey]);
    const [fromNetwork, fromNetworkEverywhere, forCard] = await Promise.all([
      countSince(tx, networkKey, new Date(now.getTime() - NETWORK_WINDOW_MS)),
      countSince(tx, everywhereKey, new Date(now.getTime() - 60 * 60_000)),
      countSince(tx, cardKey, new Date(now.getTime() - 60 * 60_000)),
    ]);
    if (
      fromNetwork >= LEADS_PER_NETWORK ||
      fromNetworkEverywhere >= LEADS_PER_NETWORK_PER_HOUR ||
      forCard >= LEADS_PER_CARD_PER_HOUR
    ) {
      return { kind: "too-many" };
    }
    // A bot counts against its network too, so a flood of them meets the limit; never against the card's.
    await tx.insert(throttleEvents).values([
      { key: networkKey, createdAt: now },
      { key: everywhereKey, createdAt: now },
    ]);
    if (looksLikeBot) return { kind: "dropped" };
    if (age < MIN_FILL_MS) return { kind: "too-soon" };
    if (age > MAX_FORM_AGE_MS) return { kind: "expired" };
    if ((await countSince(tx, stampKey, new Date(now.getTime() - MAX_FORM_AGE_MS - 60_000))) > 0) {
      return { kind: "dropped" };
    }
    await tx.insert(throttleEvents).values([
      { key: cardKey, createdAt: now },
      { key: stampKey, createdAt: now },
    ]);
    // The contact card goes to an address a few times an hour at most, whoever asks for it.
    const sendCard = input.wantsCard && input.email !== null && (await takeMailQuota("lead-card", input.email, tx));
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
        consentText: consent,
        locale: options.locale,
        wantsCard: input.wantsCard,
        createdAt: now,
        // Kept no longer than the consent said, whatever the setting becomes.
        expiresAt: monthsAfter(now, months),
      })
      .returning({ id: leads.id });
    const leadId = (lead as { id: string }).id;
    // The owner's address is read again when the mail is sent: a changed address gets it.
    const jobs: (typeof mailJobs.$inferInsert)[] = [{ kind: "lead", profileId: card.id, leadId, email: card.email }];
    if (sendCard && input.email) jobs.push({ kind: "lead-card", profileId: card.id, leadId, email: input.email });
    await tx.insert(mailJobs).values(jobs);
    return { kind: "stored", id: leadId, cardSent: sendCard };
  });
  if (outcome.kind !== "stored") return outcome;
  wakeMailQueue();
  return outcome;
}
