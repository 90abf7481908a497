import { generateId } from "better-auth";
import { and, type Column, eq, isNull, sql } from "drizzle-orm";
import { CARD_FIELD_KEYS } from "~/lib/card-fields";
import { getJoinRule, mayJoin } from "../accounts/join-rule";
import { isAdminEmail } from "../platform/admins";
import { db, type Queryable } from "../platform/db/client";
import { isUniqueViolation } from "../platform/db/errors";
import { accounts, emailLinks, profiles, ssoIdentities, users } from "../platform/db/schema";
import { domainOf } from "../platform/email-domains";
import { EmailSchema, NameSchema } from "../platform/validation";
import { CARD_FIELD_RULES } from "../profiles/card-fields";
import { cardLabel, writeCards } from "../profiles/card-writer";
import { type CardDetails, claimOrCreateProfile } from "../profiles/claim-profile";
import type { ProviderClaims } from "./claims";
import type { Provider } from "./providers";

export type Account = typeof users.$inferSelect;

/** Why a provider's word did not give an account, said on /auth (sso/messages.ts). */
export type IdentityRefusal =
  | "failed"
  | "no-email"
  | "unverified-email"
  | "domain"
  | "taken"
  | "link-unverified"
  | "break-glass"
  | "not-allowed";

/** What a card is given from a provider's claims: names and each field whose definition names a claim. */
type CardValues = { firstName: string | null; lastName: string | null; fields: CardDetails };

/**
 * Reads a card's values from the claims, each through the same check as the
 * card's form: a value the form would refuse (too long, control characters, a
 * phone number that is not one) is left out, not stored.
 */
function cardValuesFrom(claims: ProviderClaims): CardValues {
  const name = (claim: string, label: string) => {
    const parsed = NameSchema(label).safeParse(claims.text[claim] ?? "");
    return parsed.success ? parsed.data : null;
  };
  const fields: CardDetails = {};
  for (const key of CARD_FIELD_KEYS) {
    const rules = CARD_FIELD_RULES[key];
    if (key === "links") continue;
    for (const claim of rules.claims) {
      const parsed = rules.schema.safeParse(claims.text[claim]);
      if (parsed.success && typeof parsed.data === "string" && parsed.data) {
        fields[key] = parsed.data;
        break;
      }
    }
  }
  const given = name("given_name", "First name");
  const family = name("family_name", "Last name");
  if (given || family) return { firstName: given, lastName: family, fields };
  // Only a whole name (a display name, a common name): its first word is the first name, the rest the last.
  const [first = "", ...rest] = (claims.text.name ?? "").split(/\s+/).filter(Boolean);
  const parsedFirst = NameSchema("First name").safeParse(first);
  const parsedLast = NameSchema("Last name").safeParse(rest.join(" "));
  return {
    firstName: parsedFirst.success && parsedFirst.data ? parsedFirst.data : null,
    lastName: parsedLast.success && parsedLast.data ? parsedLast.data : null,
    fields,
  };
}

function addressOf(claims: ProviderClaims): string | null {
  const parsed = EmailSchema.safeParse(claims.text.email ?? "");
  return parsed.success ? parsed.data : null;
}

/** A subject as OpenID Connect allows it: at most 255 printable characters. */
const SUBJECT = /^[\x20-\x7e\u00a0-\uffff]{1,255}$/u;

/** Google's own issuer signs in any Google account: only its hosted-domain claim ties one to a company. */
const GOOGLE_ISSUER = "https://accounts.google.com";

type Resolved =
  | { outcome: "ok"; user: Account; linked: boolean }
  | { outcome: IdentityRefusal }
  | { outcome: "confirm-admin" };

/**
 * The account a provider's sign-in is for (docs/decisions/030-single-sign-on.md).
 * An identity is found by the provider's issuer and subject only, so a changed
 * email claim never moves it to another account. A first sign-in is linked by
 * address, and only for an address of the provider's own domains: the account
 * with that address, else a new one, unless only invited people may join and
 * no card was prepared for it. An address already linked to another subject of the
 * same issuer is refused, not taken over, and so is an address of
 * ADMIN_EMAILS, which keeps its password as the way in a provider cannot touch.
 */
async function resolveIn(
  tx: Queryable,
  provider: Provider,
  claims: ProviderClaims,
  confirmedAdmin: string | null,
): Promise<Resolved> {
  if (!SUBJECT.test(claims.subject)) return { outcome: "failed" };
  const email = addressOf(claims);
  const [known] = await tx
    .update(ssoIdentities)
    .set({ lastSignInAt: new Date(), email: email ?? "" })
    .where(and(eq(ssoIdentities.issuer, claims.issuer), eq(ssoIdentities.subject, claims.subject)))
    .returning({ userId: ssoIdentities.userId });
  if (known) {
    const [user] = await tx.select().from(users).where(eq(users.id, known.userId));
    if (user) return { outcome: "ok", user, linked: false };
  }

  if (!email) return { outcome: "no-email" };
  if (claims.emailVerified === false) return { outcome: "unverified-email" };
  const domain = domainOf(email);
  if (!provider.domains.includes(domain)) return { outcome: "domain" };
  if (claims.issuer === GOOGLE_ISSUER && claims.text.hd !== domain) return { outcome: "domain" };
  if (isAdminEmail(email)) return { outcome: "break-glass" };

  const values = cardValuesFrom(claims);
  const fromProvider = {
    name: `${values.firstName ?? ""} ${values.lastName ?? ""}`.trim() || email,
    firstName: values.firstName,
    lastName: values.lastName,
    phone: values.fields.phone ?? null,
  };
  let [user] = await tx.select().from(users).where(sql`lower(${users.email}) = ${email}`).for("update");
  if (user) {
    const [other] = await tx
      .select({ subject: ssoIdentities.subject })
      .from(ssoIdentities)
      .where(and(eq(ssoIdentities.userId, user.id), eq(ssoIdentities.issuer, claims.issuer)))
      .limit(1);
    if (other) return { outcome: "taken" };
    // An account confirmed already is linked on the provider's word that the address is verified, or the
    // administrator's that the provider verifies its domains: else whoever could set that address at a
    // careless provider would sign in as the account's owner.
    if (user.emailVerified && claims.emailVerified !== true && !provider.verifiesAddresses) {
      return { outcome: "link-unverified" };
    }
    // An administrator's account is linked only once the administrator confirms it with their password.
    if (user.role === "admin" && confirmedAdmin !== user.id) return { outcome: "confirm-admin" };
    if (!user.emailVerified) {
      // An unconfirmed sign-up for the address, which the provider has now proven: nothing
      // typed there (its password, its names, its phone) was confirmed by the mailbox's owner.
      await tx.delete(accounts).where(and(eq(accounts.userId, user.id), eq(accounts.providerId, "credential")));
      await tx.delete(emailLinks).where(and(eq(emailLinks.userId, user.id), eq(emailLinks.purpose, "sign-up")));
      [user] = await tx
        .update(users)
        .set({ emailVerified: true, ...fromProvider })
        .where(eq(users.id, user.id))
        .returning();
    }
  } else {
    // The provider's domains join like the listed ones; "only invited people" still means a prepared card.
    if ((await getJoinRule(tx)).mode === "invited" && !(await mayJoin(email, tx)).allowed) {
      return { outcome: "not-allowed" };
    }
    [user] = await tx
      .insert(users)
      .values({ id: generateId(), email, emailVerified: true, ...fromProvider })
      .returning();
  }
  if (!user) throw new Error("The account could not be read back");
  await tx.insert(ssoIdentities).values({ issuer: claims.issuer, subject: claims.subject, userId: user.id, email });
  return { outcome: "ok", user, linked: true };
}

/**
 * Finds or makes the account for a provider's sign-in and gives it its card:
 * the card prepared for the address, or a new one filled from the claims
 * (also for an account whose first sign-in stopped before its card was made);
 * at later sign-ins, if the administrator chose so, the card's name and fields
 * are refreshed from them.
 */
export async function accountFromProvider(
  provider: Provider,
  claims: ProviderClaims,
  options: { confirmedAdmin?: string } = {},
): Promise<{ outcome: "ok"; user: Account } | { outcome: IdentityRefusal | "confirm-admin" }> {
  const confirmedAdmin = options.confirmedAdmin ?? null;
  let resolved: Resolved;
  try {
    resolved = await db.transaction((tx) => resolveIn(tx, provider, claims, confirmedAdmin));
  } catch (error) {
    // The same person's first sign-in in two tabs at once: the second finds what the first made.
    if (!isUniqueViolation(error)) throw error;
    resolved = await db.transaction((tx) => resolveIn(tx, provider, claims, confirmedAdmin));
  }
  if (resolved.outcome !== "ok") return resolved;
  const { user } = resolved;
  const values = cardValuesFrom(claims);
  const [card] = await db.select({ id: profiles.id }).from(profiles).where(eq(profiles.userId, user.id)).limit(1);
  if (!card) {
    await claimOrCreateProfile({
      ...user,
      firstName: values.firstName ?? user.firstName,
      lastName: values.lastName ?? user.lastName,
      details: values.fields,
    });
  } else if (!resolved.linked && provider.refreshCard) {
    await refreshCard(user.id, values);
  }
  return { outcome: "ok", user };
}

/** Copies the provider's values onto the person's active card; a value it did not send is left as it is. */
async function refreshCard(userId: string, values: CardValues) {
  const changes: Record<string, string> = { ...values.fields };
  if (values.firstName) changes.firstName = values.firstName;
  if (values.lastName) changes.lastName = values.lastName;
  if (Object.keys(changes).length === 0) return;
  const columns = profiles as unknown as Record<string, Column>;
  const differs = Object.entries(changes).map(([key, value]) => sql`${columns[key]} is distinct from ${value}`);
  await writeCards({ kind: "owner" }, async (cards) => {
    const [card] = await cards.tx
      .select({ id: profiles.id, firstName: profiles.firstName, lastName: profiles.lastName })
      .from(profiles)
      .where(and(eq(profiles.userId, userId), isNull(profiles.deactivatedAt), sql`(${sql.join(differs, sql` or `)})`));
    if (card)
      await cards.update({ id: card.id, label: cardLabel(card) }, changes, { where: isNull(profiles.deactivatedAt) });
  });
}

/** Thrown to undo a rehearsal's transaction: nothing it wrote stays. */
class Rehearsed extends Error {
  constructor(readonly resolved: Resolved) {
    super("rehearsed");
  }
}

/** What a real sign-in with these claims would do, as a test sign-in reports it. */
export type Rehearsal = {
  /** The account it would sign in: one linked before, one it would link, or a new one; null when refused. */
  account: "returning" | "existing" | "new" | null;
  outcome: IdentityRefusal | "confirm-admin" | "ok";
  /** What a new card would be given from the claims (each through the card form's checks). */
  card: CardValues;
};

/**
 * Runs a sign-in's decisions on the claims inside a transaction that is then
 * undone: an administrator's test sign-in learns what a real one would do,
 * and nothing is made, linked or changed.
 */
export async function rehearseSignIn(provider: Provider, claims: ProviderClaims): Promise<Rehearsal> {
  let resolved: Resolved;
  let existed = false;
  try {
    await db.transaction(async (tx) => {
      const email = addressOf(claims);
      if (email) {
        const [user] = await tx.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email}`);
        existed = !!user;
      }
      throw new Rehearsed(await resolveIn(tx, provider, claims, null));
    });
    throw new Error("The rehearsal was not undone");
  } catch (error) {
    if (!(error instanceof Rehearsed)) throw error;
    resolved = error.resolved;
  }
  const account =
    resolved.outcome === "ok"
      ? resolved.linked
        ? existed
          ? "existing"
          : "new"
        : "returning"
      : resolved.outcome === "confirm-admin"
        ? "existing"
        : null;
  return { account, outcome: resolved.outcome, card: cardValuesFrom(claims) };
}
