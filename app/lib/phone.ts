/**
 * Phone numbers as people type them, extension included:
 * "+49 30 1234 5678 ext. 9999", "… x9999", "… #9999", "…;ext=9999".
 */
const EXTENSION = /\s*(?:;\s*ext=|,|\bext\.?|\bextension\b|\bx|#)\s*(\d{1,10})\s*$/i;

/** The number and its extension (digits only), or no extension. */
export function splitPhone(value: string): { number: string; extension: string | null } {
  const match = EXTENSION.exec(value);
  if (!match) return { number: value.trim(), extension: null };
  return { number: value.slice(0, match.index).trim(), extension: match[1] ?? null };
}

/** A `tel:` link (RFC 3966) that dials the number and then the extension. */
export function telHref(value: string): string {
  const { number, extension } = splitPhone(value);
  return `tel:${number.replace(/[^+\d]/g, "")}${extension ? `;ext=${extension}` : ""}`;
}
