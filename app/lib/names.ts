/**
 * How a person's name is written, shared by server and client.
 *
 * Names in Chinese, Japanese and Korean script are written family name first,
 * with no space between the parts ("佐藤浩", "김민준"), and people are greeted by
 * the whole name, never the given name alone. Every other name is written given
 * name first. Which applies is read from the script of the name itself: the
 * viewer's language says nothing about how a colleague's name is written.
 */

/** Han (Chinese characters, kanji), the Japanese kana, and Hangul. */
const FAMILY_FIRST_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** A letter of Latin script: a name with one is a romanised name, written given name first. */
const LATIN_LETTER = /\p{Script=Latin}/u;

type Named = { firstName: string; lastName: string };

/** Whether this name is written family name first: it is in a CJK script, with no Latin letter in it. */
export function familyNameFirst(person: Named): boolean {
  const both = `${person.firstName}${person.lastName}`;
  return FAMILY_FIRST_SCRIPT.test(both) && !LATIN_LETTER.test(both);
}

/** The name as it is written: "Ada Lovelace", "佐藤浩". */
export function fullName(person: Named): string {
  const first = person.firstName.trim();
  const last = person.lastName.trim();
  if (familyNameFirst(person)) return `${last}${first}`;
  return `${first} ${last}`.trim();
}

/** The name a greeting uses: the given name, or the whole name where names are written family name first. */
export function greetingName(person: Named): string {
  return familyNameFirst(person) ? fullName(person) : person.firstName.trim();
}

/** Up to two letters for an avatar without a photo: "AL"; the family name's first character for "佐藤浩". */
export function initials(person: Named): string {
  if (familyNameFirst(person)) return Array.from(person.lastName.trim() || person.firstName.trim())[0] ?? "?";
  const first = Array.from(person.firstName.trim())[0] ?? "";
  const last = Array.from(person.lastName.trim())[0] ?? "";
  return `${first}${last}`.toUpperCase() || "?";
}
