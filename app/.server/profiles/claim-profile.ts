import { type Column, eq, sql } from "drizzle-orm";
import type { CardFieldKey } from "~/lib/card-fields";
import { isAdminEmail } from "../platform/admins";
import { isUniqueViolation } from "../platform/db/errors";
import { type Profile, profiles } from "../platform/db/schema";
import { type CardWriter, writeCards } from "./card-writer";
import { uniqueUsername, usernameBase } from "./usernames";
import { newCardVisibility } from "./visibility";

export type ClaimUser = {
  id: string;
  email: string;
  emailVerified: boolean;
  firstName?: string | null;
  lastName?: string | null;
  phone?: string | null;
  name?: string | null;
  /** Card fields from an identity provider's claims: a new card gets them, a prepared card only where it has none. */
  details?: CardDetails;
};

/** A card's text fields by name (links are a list, and never come from a provider). */
export type CardDetails = Partial<Record<Exclude<CardFieldKey, "links">, string>>;

export type ClaimResult =
  | { outcome: "existing" | "claimed" | "created"; profile: Profile }
  | { outcome: "unverified" | "conflict"; profile: null };

function namesOf(user: ClaimUser) {
  const [first = "", ...rest] = (user.name ?? "").trim().split(/\s+/);
  return {
    firstName: user.firstName?.trim() || first,
    lastName: user.lastName?.trim() || rest.join(" "),
  };
}

/**
 * Gives a verified user their card: the unclaimed profile with their address
 * is linked to them, else a new profile is made. A claim never goes back, and
 * an unverified account owns nothing (docs/decisions/004-verified-claims.md).
 */
export async function claimOrCreateProfile(user: ClaimUser): Promise<ClaimResult> {
  if (!user.emailVerified) return { outcome: "unverified", profile: null };
  try {
    return await writeCards({ kind: "owner" }, (cards) => claimOrCreateIn(cards, user));
  } catch (error) {
    // Two requests raced to create the same username: the second one retries.
    if (!isUniqueViolation(error)) throw error;
    return await writeCards({ kind: "owner" }, (cards) => claimOrCreateIn(cards, user));
  }
}

/**
 * Links the unclaimed card with the user's address, if there is one, and
 * creates nothing: run at every sign-in and signed-in page of a verified
 * account without a card, so a card an administrator prepares (or
 * re-creates) later is picked up at once. A deleted card is not brought back.
 */
export async function claimUnclaimedProfile(user: ClaimUser): Promise<Profile | null> {
  if (!user.emailVerified) return null;
  return await writeCards({ kind: "owner" }, (cards) =>
    cards.claim(sql`lower(${profiles.email}) = ${user.email.toLowerCase()}`, user.id),
  );
}

async function claimOrCreateIn(cards: CardWriter, user: ClaimUser): Promise<ClaimResult> {
  const { tx } = cards;
  const [owned] = await tx.select().from(profiles).where(eq(profiles.userId, user.id)).limit(1);
  if (owned) return { outcome: "existing", profile: owned };

  const { firstName, lastName } = namesOf(user);
  const phone = user.phone?.trim() || null;
  const details = user.details ?? {};
  const columns = profiles as unknown as Record<string, Column>;
  const filled = Object.fromEntries(
    Object.entries(details).map(([key, value]) => [key, sql`coalesce(${columns[key]}, ${value})`]),
  );

  const claimed = await cards.claim(sql`lower(${profiles.email}) = ${user.email.toLowerCase()}`, user.id, {
    ...filled,
    ...(firstName ? { firstName } : {}),
    ...(lastName ? { lastName } : {}),
    ...(phone ? { phone } : {}),
  });
  if (claimed) return { outcome: "claimed", profile: claimed };

  const [sameEmail] = await tx
    .select({ id: profiles.id })
    .from(profiles)
    .where(sql`lower(${profiles.email}) = ${user.email.toLowerCase()}`)
    .limit(1);
  if (sameEmail) {
    console.warn(`[profiles] ${user.email} already belongs to another account's profile`);
    return { outcome: "conflict", profile: null };
  }

  const admin = isAdminEmail(user.email);
  const values = admin
    ? // An administrator signing in for the first time gets a card of their own.
      {
        firstName: firstName || "Admin",
        lastName: lastName || "User",
        username: await uniqueUsername(tx, "admin"),
        bio: "System Administrator",
      }
    : {
        firstName: firstName || user.email.split("@")[0] || "Member",
        lastName,
        username: await uniqueUsername(
          tx,
          usernameBase(firstName || user.email.split("@")[0] || "", lastName, user.email),
        ),
        bio: null,
      };
  const created = await cards.create({
    ...details,
    ...values,
    userId: user.id,
    email: user.email.toLowerCase(),
    phone,
    claimedAt: new Date(),
    // Made at sign-up, not prepared by an administrator (docs/decisions/024-who-can-join.md).
    selfJoined: true,
    fieldVisibility: await newCardVisibility(tx),
  });
  return { outcome: "created", profile: created };
}
