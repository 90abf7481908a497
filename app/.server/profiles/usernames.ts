import { and, type SQL, sql } from "drizzle-orm";
import { transliterate } from "transliteration";
import type { Queryable } from "../platform/db/client";
import { profiles, usernameRedirects } from "../platform/db/schema";

/** Letters whose transliteration reads as the person would write their name in Latin letters. */
const READS_RIGHT = /^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]$/u;

function clean(value: string): string {
  return transliterate(value.normalize("NFC"))
    .toLowerCase()
    .replace(/\s+/g, "")
    .replace(/[^a-z0-9._-]/g, "");
}

/**
 * A new card's username: lowercase first name, a dot, lowercase last name,
 * spaces removed. Every letter is transliterated to ASCII (ı → i, ø → o,
 * ß → ss, Юлия → yuliya) and what still does not belong in a URL is dropped.
 * A name in a script whose transliteration guesses (Japanese kanji read as
 * Chinese: 佐藤 浩 → hao.zuoteng; Arabic without its vowels: ليلى حداد →
 * lyl.hdd) takes the part of the address before the @ instead, which the
 * person chose in Latin letters (hiroshi.sato), when there is one.
 */
export function usernameBase(firstName: string, lastName: string, email?: string | null): string {
  const letters = [...`${firstName}${lastName}`].filter((char) => /\p{L}/u.test(char));
  const guessed = letters.some((char) => !READS_RIGHT.test(char));
  const local = clean(email?.split("@")[0] ?? "").replace(/^[._-]+|[._-]+$/g, "");
  if (guessed && /[a-z]/.test(local)) return local.slice(0, 30);
  const base = [clean(firstName), clean(lastName)].filter(Boolean).join(".");
  return base || "member";
}

/** Names that would collide with a route under /profile. */
export const RESERVED_USERNAMES: readonly string[] = ["edit"];

/** `base`, or `base2`, `base3`… — the first one no profile uses (case-insensitive). */
export async function uniqueUsername(tx: Queryable, base: string): Promise<string> {
  const [username] = await uniqueUsernames(tx, [base]);
  return username ?? base;
}

/**
 * `uniqueUsername` for many cards at once (a bulk import): one query for all
 * the bases, and two cards of the same name get `base` and `base2`.
 * `alsoTaken` are names no new card may take either.
 */
export async function uniqueUsernames(
  tx: Queryable,
  bases: string[],
  alsoTaken: Iterable<string> = [],
): Promise<string[]> {
  if (bases.length === 0) return [];
  const wanted = JSON.stringify([...new Set(bases)]);
  // Only `base` and `base` followed by digits can collide, whatever else starts with `base`.
  // Written as `= any(array(…))` so that both halves read an index (profiles_username_stem_idx for
  // the second) rather than every card: an `in` over a subquery here is checked row by row.
  const matches = (column: SQL) =>
    sql`(${column} = any(array(select jsonb_array_elements_text(${wanted}::jsonb)))
      or regexp_replace(${column}, '[0-9]+$', '') = any(array(select jsonb_array_elements_text(${wanted}::jsonb))))`;
  const taken = await tx
    .select({ username: sql<string>`lower(${profiles.username})` })
    .from(profiles)
    .where(matches(sql`lower(${profiles.username})`));
  // Old names of other cards still redirect to them.
  const previous = await tx
    .select({ username: usernameRedirects.username })
    .from(usernameRedirects)
    .where(and(matches(sql`${usernameRedirects.username}`), oldNameLive()));
  const used = new Set([...RESERVED_USERNAMES, ...alsoTaken, ...[...taken, ...previous].map((row) => row.username)]);
  return bases.map((base) => {
    let candidate = base;
    for (let suffix = 2; used.has(candidate); suffix++) candidate = `${base}${suffix}`;
    used.add(candidate);
    return candidate;
  });
}

/** Whether `value` could be a stored username (any letter case): the address of a card. */
export function isPossibleUsername(value: string): boolean {
  return value.length <= 40 && /^[a-z0-9][a-z0-9._-]*$/i.test(value);
}

/** An old name that still counts: it has not expired. Every reader of old names uses it. */
export function oldNameLive(): SQL {
  return sql`${usernameRedirects.expiresAt} > now()`;
}
