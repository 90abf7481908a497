import { and, eq, isNull, sql } from "drizzle-orm";
import { isAdminEmail } from "./admins";
import { db, type Queryable } from "./db/client";
import { type Profile, profiles } from "./db/schema";
import { publish } from "./realtime";

/**
 * Spec §5: lowercase first name, a dot, lowercase last name, spaces removed.
 * We also fold accents and drop characters that do not belong in a URL.
 */
export function usernameBase(firstName: string, lastName: string): string {
  const clean = (value: string) =>
    value
      .normalize("NFKD")
      .replace(/\p{M}/gu, "")
      .toLowerCase()
      .replace(/\s+/g, "")
      .replace(/[^a-z0-9._-]/g, "");
  const base = [clean(firstName), clean(lastName)].filter(Boolean).join(".");
  return base || "member";
}

/** Names that would collide with a route under /profile. */
export const RESERVED_USERNAMES: readonly string[] = ["edit"];

/** `base`, or `base2`, `base3`… — the first one no profile uses (case-insensitive). */
export async function uniqueUsername(tx: Queryable, base: string): Promise<string> {
  const taken = await tx
    .select({ username: sql<string>`lower(${profiles.username})` })
    .from(profiles)
    .where(sql`lower(${profiles.username}) like ${`${base.replace(/[\\%_]/g, "\\$&")}%`}`);
  const used = new Set([...RESERVED_USERNAMES, ...taken.map((row) => row.username)]);
  if (!used.has(base)) return base;
  for (let suffix = 2; ; suffix++) {
    const candidate = `${base}${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}

export type ClaimUser = {
  id: string;
  email: string;
  emailVerified: boolean;
  firstName?: string | null;
  lastName?: string | null;
  phone?: string | null;
  name?: string | null;
};

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
 * Gives a verified user their card (spec §4, DESIGN.md "Claiming needs a
 * verified email"): the unclaimed profile with their address is linked to them,
 * else a new profile is made. A claim never goes back, and an unverified
 * account owns nothing.
 */
export async function claimOrCreateProfile(user: ClaimUser): Promise<ClaimResult> {
  if (!user.emailVerified) return { outcome: "unverified", profile: null };
  let result: ClaimResult;
  try {
    result = await db.transaction((tx) => claimOrCreateIn(tx, user));
  } catch (error) {
    // Two requests raced to create the same username: the second one retries.
    if (!isUniqueViolation(error)) throw error;
    result = await db.transaction((tx) => claimOrCreateIn(tx, user));
  }
  if (result.profile && result.outcome !== "existing") await publish({ kind: "profile", id: result.profile.id });
  return result;
}

async function claimOrCreateIn(tx: Queryable, user: ClaimUser): Promise<ClaimResult> {
  const [owned] = await tx.select().from(profiles).where(eq(profiles.userId, user.id)).limit(1);
  if (owned) return { outcome: "existing", profile: owned };

  const { firstName, lastName } = namesOf(user);
  const phone = user.phone?.trim() || null;

  const [claimed] = await tx
    .update(profiles)
    .set({
      userId: user.id,
      claimedAt: new Date(),
      ...(firstName ? { firstName } : {}),
      ...(lastName ? { lastName } : {}),
      ...(phone ? { phone } : {}),
    })
    .where(and(sql`lower(${profiles.email}) = ${user.email.toLowerCase()}`, isNull(profiles.userId)))
    .returning();
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
    ? // Spec §4: the administrator's profile.
      {
        firstName: firstName || "Admin",
        lastName: lastName || "User",
        username: await uniqueUsername(tx, "admin"),
        bio: "System Administrator",
      }
    : {
        firstName: firstName || user.email.split("@")[0] || "Member",
        lastName,
        username: await uniqueUsername(tx, usernameBase(firstName || user.email.split("@")[0] || "", lastName)),
        bio: null,
      };
  const [created] = await tx
    .insert(profiles)
    .values({
      ...values,
      userId: user.id,
      email: user.email.toLowerCase(),
      phone,
      viewCount: 0,
      claimedAt: new Date(),
    })
    .returning();
  if (!created) throw new Error("Inserting the profile returned no row");
  return { outcome: "created", profile: created };
}

export function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    if ((current as { code?: string }).code === "23505") return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
