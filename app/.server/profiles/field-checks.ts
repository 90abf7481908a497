import { and, eq, ne, sql } from "drizzle-orm";
import { EMAIL_TAKEN, type ProfileFields, USERNAME_TAKEN } from "~/lib/profile-schema";
import type { FieldErrors } from "~/lib/validation";
import { db } from "./db/client";
import { brands, profiles } from "./db/schema";
import { isUniqueViolation, RESERVED_USERNAMES } from "./profiles";

/**
 * Checks what only the database knows: the username and email are free
 * (case-insensitively, ignoring the profile itself) and the brand is active.
 */
export async function checkProfileFields(
  fields: ProfileFields,
  current: { id: string; companyBrandId: number | null } | null,
): Promise<FieldErrors> {
  const profileId = current?.id ?? null;
  const errors: FieldErrors = {};
  const others = profileId ? ne(profiles.id, profileId) : sql`true`;
  if (RESERVED_USERNAMES.includes(fields.username)) errors.username = [USERNAME_TAKEN];
  const [username] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(sql`lower(${profiles.username}) = ${fields.username.toLowerCase()}`, others))
    .limit(1);
  if (username) errors.username = [USERNAME_TAKEN];
  const [email] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(sql`lower(${profiles.email}) = ${fields.email.toLowerCase()}`, others))
    .limit(1);
  if (email) errors.email = [EMAIL_TAKEN];
  // A card may keep a brand that was deactivated since; it cannot pick one.
  if (fields.companyBrandId !== null && fields.companyBrandId !== current?.companyBrandId) {
    const [brand] = await db
      .select({ id: brands.id })
      .from(brands)
      .where(and(eq(brands.id, fields.companyBrandId), eq(brands.active, true)))
      .limit(1);
    if (!brand) errors.companyBrandId = ["Choose a brand from the list"];
  }
  return errors;
}

/** Turns a unique-index race into the same field message the check gives. */
export function uniqueViolationErrors(error: unknown): FieldErrors | null {
  if (!isUniqueViolation(error)) return null;
  const text =
    JSON.stringify(error, Object.getOwnPropertyNames(error as object)) +
    String((error as { cause?: unknown }).cause ?? "");
  if (text.includes("profiles_email_lower_key")) return { email: [EMAIL_TAKEN] };
  return { username: [USERNAME_TAKEN] };
}
