import { z } from "zod";
import type { FieldErrors } from "~/lib/action-result";
import { LOCALES } from "~/lib/i18n/locales";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~/lib/limits";
import { splitPhone } from "~/lib/phone";
import { ValidationError } from "./errors";

/**
 * The field rules every form shares, written once. They live on the server:
 * the browser validates nothing, so it never downloads the schema library.
 */
/**
 * Characters no text field takes: C0 and C1 control characters (NUL, escape,
 * line breaks...), DEL, the Unicode line and paragraph separators, the
 * direction overrides that make text read differently from what it is, and
 * U+FFFD, which stands where the bytes sent were not valid UTF-8.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what this is for
const FORBIDDEN_SINGLE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufffd]/;
/** The same, except that a multi-line field keeps line breaks and tabs. */
const FORBIDDEN_MULTI_LINE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what this is for
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufffd]/;

/** Control characters other than line breaks and tabs, to strip from stored text on its way out. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what this is for
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/g;

export function hasForbiddenCharacters(value: string, options: { multiline?: boolean } = {}) {
  return (options.multiline ? FORBIDDEN_MULTI_LINE : FORBIDDEN_SINGLE_LINE).test(value);
}

/**
 * A label as it reads inside a sentence: "First name" becomes "first name";
 * a label that starts with a proper name ("LinkedIn URL") is kept.
 */
function noun(label: string) {
  return /^[A-Z][a-z]+[A-Z]/.test(label) ? label : label.charAt(0).toLowerCase() + label.slice(1);
}

/** What to do about a value longer than its field takes. */
export const tooLongMessage = (label: string, max: number) =>
  `Use at most ${max.toLocaleString("en-US")} characters for the ${noun(label)}`;

const forbiddenMessage = (label: string, multiline: boolean) =>
  multiline
    ? `Remove the control characters from the ${noun(label)}: only letters, numbers, punctuation and line breaks can be used`
    : `Write the ${noun(label)} on one line of plain text, without line breaks or control characters`;

/** A trimmed string that refuses control characters (line breaks only where `multiline`). */
export const TextSchema = (label: string, options: { multiline?: boolean } = {}) =>
  z
    .string({ message: `Enter the ${noun(label)} as text` })
    .refine((value) => !hasForbiddenCharacters(value, options), {
      message: forbiddenMessage(label, !!options.multiline),
      abort: true,
    })
    .transform((value) => value.trim());

export const EmailSchema = TextSchema("Email")
  .pipe(
    z
      .string()
      .min(1, "Enter an email address")
      .max(254, tooLongMessage("Email address", 254))
      .pipe(z.email("Enter an email address such as name@company.com")),
  )
  .transform((value) => value.toLowerCase());

/** A password is taken as typed (spaces count); only control characters are refused. */
export const PasswordSchema = z
  .string({ message: "Enter a password" })
  .min(1, "Enter a password")
  .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters for the password`)
  .max(PASSWORD_MAX_LENGTH, tooLongMessage("Password", PASSWORD_MAX_LENGTH))
  .refine((value) => !hasForbiddenCharacters(value), {
    message: "Use a password without line breaks or control characters",
  });

export const NameSchema = (label: string) =>
  TextSchema(label).pipe(
    z
      .string()
      .min(1, `Enter a ${noun(label)}`)
      .max(80, tooLongMessage(label, 80)),
  );

/** An optional text field: empty means null. */
export const OptionalTextSchema = (max: number, label: string, options: { multiline?: boolean } = {}) =>
  TextSchema(label, options)
    .pipe(z.string().max(max, tooLongMessage(label, max)))
    .optional()
    .transform((value) => (value ? value : null));

/** One of the languages Namecard speaks, or none (empty: the default above it). */
export const LocaleChoiceSchema = z
  .enum(["", ...LOCALES], { message: "Choose one of the offered languages" })
  .optional()
  .transform((value) => (value ? value : null));

/** A phone number as people write one: digits, spaces, + ( ) . - /, and an extension. */
export function isPhoneNumber(value: string): boolean {
  return /^[+()0-9.\-\s/]{3,}$/.test(splitPhone(value).number);
}

export const PhoneSchema = TextSchema("Phone number")
  .pipe(
    z
      .string()
      .max(40, tooLongMessage("Phone number", 40))
      .refine((value) => value === "" || isPhoneNumber(value), {
        message:
          "Enter a phone number such as +49 30 1234 5678 (digits, spaces, + ( ) -), and an extension as ext. 123",
      }),
  )
  .optional()
  .transform((value) => (value ? value : null));

/** A host name with at least one dot, then a port, path, query or nothing: "linkedin.com/in/name". */
const BARE_ADDRESS = /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+\p{L}{2,}(?::\d{1,5})?(?:[/?#]|$)/u;

/**
 * An address as people type it, completed: "linkedin.com/in/name" and
 * "www.example.com" are web addresses without their `https://`. Anything with
 * a scheme of its own ("javascript:", "mailto:") or none that looks like a
 * host is left as it is, for the check to refuse.
 */
export function completeUrl(value: string): string {
  return !/^[a-z][a-z0-9+.-]*:/i.test(value) && BARE_ADDRESS.test(value) ? `https://${value}` : value;
}

/** The address a web link is stored as: http(s) only, with a host, normalised; otherwise null. */
function normalizeHttpUrl(typed: string): string | null {
  if (hasForbiddenCharacters(typed) || /\s|\\/.test(typed)) return null;
  const value = completeUrl(typed);
  try {
    const url = new URL(value);
    if ((url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname) return null;
    if (url.username || url.password) return null;
    return url.href;
  } catch {
    return null;
  }
}

function isHttpUrl(value: string) {
  return normalizeHttpUrl(value) !== null;
}

/**
 * An optional web address; only http(s), so a card never carries a script link. It is
 * stored as the browser would resolve it (WHATWG-normalised), so what is stored is what is shown and linked.
 */
export const OptionalUrlSchema = (label: string, example = "https://www.example.com") =>
  TextSchema(label)
    .pipe(z.string().max(300, tooLongMessage(label, 300)))
    .optional()
    .transform((value) => (value ? value : null))
    .refine((value) => value === null || isHttpUrl(value), {
      message: `Enter the whole address, starting with https://, such as ${example}`,
    })
    .transform((value) => (value === null ? null : normalizeHttpUrl(value)));

/** The largest id a serial column holds (PostgreSQL `integer`). */
export const MAX_ID = 2_147_483_647;

/** A brand chosen from a list: its id, or null for the empty choice ("No brand"). */
export const BrandChoiceSchema = z
  .string()
  .regex(/^[0-9]{0,10}$/, "Choose a brand from the list")
  .transform((value) => (value === "" ? null : Number(value)))
  .pipe(z.number().int().positive().max(MAX_ID, "Choose a brand from the list").nullable());

/** A whole number id from a form or URL, or null when it is not one (out of range included). */
function parseId(value: string | null | undefined): number | null {
  if (!value || !/^[0-9]{1,10}$/.test(value)) return null;
  const id = Number(value);
  return id >= 1 && id <= MAX_ID ? id : null;
}

/**
 * The shared reading of list filters in a URL: `brand` (a brand id) and `page`
 * (1 to 10,000). Absent or empty means the default; anything else that is not
 * one throws a ValidationError, which the page answers with 400.
 */
export function parseListFilters(url: URL): { brand: number | null; page: number } {
  const errors: FieldErrors = {};
  const brandText = url.searchParams.get("brand") ?? "";
  const brand = brandText === "" ? null : parseId(brandText);
  if (brandText !== "" && brand === null) errors.brand = ["Choose a brand from the list."];
  const pageText = url.searchParams.get("page") ?? "";
  const page = pageText === "" ? 1 : /^[0-9]{1,5}$/.test(pageText) ? Number(pageText) : Number.NaN;
  if (!(page >= 1 && page <= 10_000)) errors.page = ["Use a page number from 1 to 10,000."];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return { brand, page };
}

/** A search text from a URL (`q`, or another parameter): trimmed, cut to `max` characters, control characters refused like any field. */
export function parseSearchText(url: URL, max = 100, name = "q"): string {
  const q = (url.searchParams.get(name) ?? "").trim().slice(0, max);
  if (hasForbiddenCharacters(q))
    throw new ValidationError({
      [name]: ["Search with letters, numbers and punctuation, without control characters."],
    });
  return q;
}

const REDIRECT_BASE = "http://namecard.invalid";

/**
 * A same-site path to return to; anything else becomes the fallback. Refused:
 * other hosts and schemes, protocol-relative `//`, backslashes, control
 * characters and whitespace (browsers drop tabs and line breaks, so `/\t/host`
 * would become `//host`), and percent-encoded slashes, backslashes or control
 * characters, which a proxy or browser might decode into one of those.
 */
export function safeRedirect(target: FormDataEntryValue | string | null | undefined, fallback = "/") {
  if (typeof target !== "string" || target.length > 2000) return fallback;
  if (!target.startsWith("/") || target.startsWith("//")) return fallback;
  if (hasForbiddenCharacters(target) || /[\\\s]/.test(target)) return fallback;
  if (/%([01][0-9a-f]|7f|c2%[89][0-9a-f]|e2%80%a[89])/i.test(target)) return fallback;
  if (/%(2f|5c)/i.test(target.split("?")[0]!)) return fallback;
  let url: URL;
  try {
    url = new URL(target, REDIRECT_BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== REDIRECT_BASE) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith("/") && !path.startsWith("//") ? path : fallback;
}

/**
 * Flattens a zod error to `{ field: [message] }` for the form: one message per
 * field, the first rule it fails, so a person fixes one thing at a time.
 */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const result: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "form";
    result[key] ??= [issue.message];
  }
  return result;
}

/** Parses a form's values with a shared schema, or throws the field errors as a ValidationError. */
export function parseForm<Schema extends z.ZodType>(schema: Schema, values: unknown): z.infer<Schema> {
  const parsed = schema.safeParse(values);
  if (!parsed.success) throw new ValidationError(fieldErrors(parsed.error));
  return parsed.data;
}
