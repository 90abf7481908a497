import { sql } from "drizzle-orm";
import { transliterate } from "transliteration";
import type { Queryable } from "../db/client";
import { profiles, usernameRedirects } from "../db/schema";

/**
 * A new card's username: lowercase first name, a dot, lowercase last name,
 * spaces removed. Every letter is transliterated to ASCII (ı → i, ø → o,
 * ß → ss, 张 → zhang) and what still does not belong in a URL is dropped.
 */
export function usernameBase(firstName: string, lastName: string): string {
  const clean = (value: string) =>
    transliterate(value.normalize("NFC"))
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
  const prefix = `${base.replace(/[\\%_]/g, "\\$&")}%`;
  const taken = await tx
    .select({ username: sql<string>`lower(${profiles.username})` })
    .from(profiles)
    .where(sql`lower(${profiles.username}) like ${prefix}`);
  // Old names of other cards still redirect to them.
  const previous = await tx
    .select({ username: usernameRedirects.username })
    .from(usernameRedirects)
    .where(sql`${usernameRedirects.username} like ${prefix}`);
  const used = new Set([...RESERVED_USERNAMES, ...[...taken, ...previous].map((row) => row.username)]);
  if (!used.has(base)) return base;
  for (let suffix = 2; ; suffix++) {
    const candidate = `${base}${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}

/** Whether `value` could be a stored username (any letter case): the address of a card. */
export function isPossibleUsername(value: string): boolean {
  return value.length <= 40 && /^[a-z0-9][a-z0-9._-]*$/i.test(value);
}
