import { and, eq, ne, sql } from "drizzle-orm";
import type { FieldErrors } from "~/lib/action-result";
import { db } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { brands, profiles } from "../db/schema";
import { ConflictError, ValidationError } from "../errors";
import { isPreviousUsernameOfAnother } from "./previous-usernames";
import { EMAIL_TAKEN, type ProfileFields, USERNAME_TAKEN } from "./schemas";
import { RESERVED_USERNAMES } from "./usernames";

/**
 * Checks what only the database knows: the username and email are free
 * (case-insensitively, ignoring the profile itself) and the brand is active.
 * Throws a ConflictError (taken) or ValidationError (brand) with field messages.
 */
export async function assertProfileFieldsAvailable(
  fields: ProfileFields,
  current: { id: string; companyBrandId: number | null } | null,
): Promise<void> {
  const errors: FieldErrors = {};
  const others = current ? ne(profiles.id, current.id) : sql`true`;
  if (RESERVED_USERNAMES.includes(fields.username)) errors.username = [USERNAME_TAKEN];
  const [username] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(sql`lower(${profiles.username}) = ${fields.username.toLowerCase()}`, others))
    .limit(1);
  // Another card's old name still leads to that card: it is not free while it does.
  if (username || (await isPreviousUsernameOfAnother(fields.username, current?.id ?? null))) {
    errors.username = [USERNAME_TAKEN];
  }
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
  if (errors.companyBrandId) throw new ValidationError(errors);
  if (Object.keys(errors).length) throw new ConflictError(errors);
}

/** Turns a unique-index race into the same field message the check gives; other errors pass through. */
export function conflictFromUniqueViolation(error: unknown): unknown {
  if (!isUniqueViolation(error)) return error;
  const text =
    JSON.stringify(error, Object.getOwnPropertyNames(error as object)) +
    String((error as { cause?: unknown }).cause ?? "");
  if (text.includes("profiles_email_lower_key")) return new ConflictError({ email: [EMAIL_TAKEN] });
  return new ConflictError({ username: [USERNAME_TAKEN] });
}
