import { CARD_FIELD_KEYS, type CardDetails, fieldTexts } from "~/lib/card-fields";
import { fullName } from "~/lib/names";
import { splitPhone } from "~/lib/phone";
import { CONTROL_CHARACTERS } from "../platform/validation";
import { CARD_FIELD_RULES, type VCardProperty } from "./card-fields";

/**
 * vCard 3.0 (RFC 2426) for one card: CRLF line ends, text values escaped,
 * lines folded at 75 octets without splitting a UTF-8 character, empty
 * fields left out.
 */
export type VCardInput = {
  firstName: string;
  lastName: string;
  organization: string | null;
  /** The details shown to whoever receives the file; each is written as its field's `vcard` property says. */
  details: Partial<CardDetails>;
  /** The card's own address; none for a contact that has no card. */
  cardUrl: string | null;
  /** Base64 of a JPEG, without line breaks. */
  photoJpegBase64?: string | null;
};

const MAX_OCTETS = 75;

/** Control characters other than line breaks and tabs have no place in a contact file. */
const CONTROL = CONTROL_CHARACTERS;

/** A TEXT value (RFC 2426 §4): backslash, line breaks, comma and semicolon escaped. */
function escapeText(value: string): string {
  return value
    .replace(CONTROL, "")
    .replace(/\\/g, "\\\\")
    .replace(/\r\n|\r|\n/g, "\\n")
    .replace(/,/g, "\\,")
    .replace(/;/g, "\\;");
}

/**
 * A URI value: only an http(s) address survives, re-serialised, with every
 * character that could end the value or the line percent-encoded.
 */
function escapeUri(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value.replace(CONTROL, "").replace(/[\r\n]/g, ""));
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  return url.href.replace(
    /[\s"\\,;<>^`{|}]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`,
  );
}

/** Folds one logical line: continuation lines start with a space (RFC 2425 §5.8.1). */
function foldLine(line: string): string {
  const encoder = new TextEncoder();
  const parts: string[] = [];
  let current = "";
  let currentOctets = 0;
  let limit = MAX_OCTETS;
  for (const character of line) {
    const octets = encoder.encode(character).byteLength;
    if (currentOctets + octets > limit) {
      parts.push(current);
      current = "";
      currentOctets = 0;
      limit = MAX_OCTETS - 1; // the leading space counts
    }
    current += character;
    currentOctets += octets;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

/** One value of a field as its property's line; null when nothing of it may be written. */
const WRITE: Record<Exclude<VCardProperty, "ORG">, (value: string) => string | null> = {
  TITLE: (value) => `TITLE:${escapeText(value)}`,
  "EMAIL;TYPE=INTERNET": (value) => `EMAIL;TYPE=INTERNET:${escapeText(value)}`,
  "TEL;TYPE=CELL": (value) => {
    // The extension as a tel URI writes it: after the number, `;ext=`.
    const phone = splitPhone(value);
    if (!phone.number) return null;
    const number = escapeText(phone.number).replace(/\\[,;]/g, "");
    return `TEL;TYPE=CELL:${number}${phone.extension ? `;ext=${phone.extension}` : ""}`;
  },
  // The office is a work address: its text in the street part (RFC 2426 §3.2.1).
  "ADR;TYPE=WORK": (value) => `ADR;TYPE=WORK:;;${escapeText(value)};;;;`,
  URL: (value) => {
    const uri = escapeUri(value);
    return uri ? `URL:${uri}` : null;
  },
  NOTE: (value) => `NOTE:${escapeText(value)}`,
};

export function buildVCard(card: VCardInput): string {
  const lines: string[] = ["BEGIN:VCARD", "VERSION:3.0"];
  const formatted = fullName(card);
  lines.push(`N:${escapeText(card.lastName.trim())};${escapeText(card.firstName.trim())};;;`);
  if (formatted) lines.push(`FN:${escapeText(formatted)}`);
  // The company and the unit within it are the two parts of ORG (RFC 2426 §3.5.5).
  const organization = card.organization?.trim() ?? "";
  let unit = "";
  for (const key of CARD_FIELD_KEYS) {
    const property = CARD_FIELD_RULES[key].vcard;
    if (!property) continue;
    for (const value of fieldTexts(card.details[key])) {
      if (property === "ORG") unit ||= value;
      else {
        const line = WRITE[property](value);
        if (line) lines.push(line);
      }
    }
  }
  if (organization || unit) lines.push(`ORG:${escapeText(organization)}${unit ? `;${escapeText(unit)}` : ""}`);
  if (card.cardUrl) {
    const line = WRITE.URL(card.cardUrl.trim());
    if (line) lines.push(line);
  }
  if (card.photoJpegBase64 && /^[A-Za-z0-9+/]+=*$/.test(card.photoJpegBase64)) {
    lines.push(`PHOTO;ENCODING=b;TYPE=JPEG:${card.photoJpegBase64}`);
  }
  lines.push("END:VCARD");
  return `${lines.map(foldLine).join("\r\n")}\r\n`;
}

/** `{first}_{last}.vcf`, safe as a file name on every system. */
export function cardFileName(card: { firstName: string; lastName: string }, suffix: string): string {
  const clean = (value: string) => value.trim().replace(/[\\/:*?"<>|\s]+/g, "_");
  return `${clean(card.firstName)}_${clean(card.lastName)}${suffix}`;
}
