import { and, eq, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import type { FieldErrors } from "~/lib/action-result";
import { db } from "../platform/db/client";
import { isUniqueViolation } from "../platform/db/errors";
import { brands, profiles } from "../platform/db/schema";
import { ConflictError, ValidationError } from "../platform/errors";
import { parseForm } from "../platform/validation";
import { isPreviousUsernameOfAnother } from "./previous-usernames";
import { EMAIL_TAKEN, type ProfileFields, profileFormInput, USERNAME_TAKEN } from "./schemas";
import { isPossibleUsername, RESERVED_USERNAMES } from "./usernames";

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

/**
 * Parses a profile form. When a field's format is wrong, a username or email
 * that is well-formed but taken is reported in the same answer, so a person
 * fixes everything in one round instead of meeting "taken" after the rest.
 */
export async function parseProfileForm<Schema extends z.ZodType>(
  schema: Schema,
  values: Record<string, string>,
  profileId: string | null,
): Promise<z.infer<Schema>> {
  try {
    return parseForm(schema, profileFormInput(values));
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const errors: FieldErrors = { ...error.fieldErrors };
    const others = profileId ? ne(profiles.id, profileId) : sql`true`;
    const username = values.username?.trim().toLowerCase();
    if (!errors.username && username && isPossibleUsername(username)) {
      const [row] = await db
        .select({ id: profiles.id })
        .from(profiles)
        .where(and(sql`lower(${profiles.username}) = ${username}`, others))
        .limit(1);
      if (row || RESERVED_USERNAMES.includes(username) || (await isPreviousUsernameOfAnother(username, profileId))) {
        errors.username = [USERNAME_TAKEN];
      }
    }
    const email = values.email?.trim().toLowerCase();
    if (!errors.email && email) {
      const [row] = await db
        .select({ id: profiles.id })
        .from(profiles)
        .where(and(sql`lower(${profiles.email}) = ${email}`, others))
        .limit(1);
      if (row) errors.email = [EMAIL_TAKEN];
    }
    throw new ValidationError(errors);
  }
}
