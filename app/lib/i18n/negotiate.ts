import { match } from "@formatjs/intl-localematcher";
import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from "./locales";

/** A header longer than any browser sends is read only this far. */
const MAX_HEADER_LENGTH = 512;
/** Languages read from one header at most. */
const MAX_RANGES = 16;
/** What `match` answers when none of ours is close enough. */
const NO_MATCH = "und";

/**
 * The languages an `Accept-Language` header asks for, most wanted first:
 * weights read, `*` and refused (`q=0`) ranges and malformed tags left out.
 */
export function requestedLanguages(header: string | null | undefined): string[] {
  if (!header) return [];
  const ranges: { tag: string; weight: number; order: number }[] = [];
  for (const [order, part] of header.slice(0, MAX_HEADER_LENGTH).split(",").slice(0, MAX_RANGES).entries()) {
    const [range = "", ...parameters] = part.trim().split(";");
    const tag = range.trim();
    const q = parameters.map((parameter) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(parameter)?.[1]).find(Boolean);
    const weight = q === undefined ? 1 : Number(q);
    if (!tag || tag === "*" || weight <= 0 || !isWellFormed(tag)) continue;
    ranges.push({ tag, weight, order });
  }
  return ranges.sort((a, b) => b.weight - a.weight || a.order - b.order).map((range) => range.tag);
}

function isWellFormed(tag: string): boolean {
  if (!/^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/.test(tag)) return false;
  try {
    Intl.getCanonicalLocales(tag);
    return true;
  } catch {
    return false;
  }
}

/** The language of ours closest to what the browser asks for, or null when none is close (Swedish, traditional Chinese). */
export function localeFromHeader(header: string | null | undefined): Locale | null {
  const requested = requestedLanguages(header);
  if (requested.length === 0) return null;
  const found = match(requested, LOCALES, NO_MATCH, { algorithm: "best fit" });
  return isLocale(found) ? found : null;
}

/** The language a link asks for with `?lang=`, when it is one of ours. */
export function localeFromQuery(url: URL): Locale | null {
  const asked = url.searchParams.get("lang");
  return isLocale(asked) ? asked : null;
}

/**
 * The pages that speak their visitor's language today: the card, its QR page
 * and its lead form. The others stay English until their words are in the
 * catalogs; a page in two languages would be worse than either.
 */
const VISITOR_PAGES = [/^\/profile\/(?!edit\/?$)[^/]+\/?$/, /^\/profile\/[^/]+\/share-back\/?$/, /^\/qr\/[^/]+\/?$/];

export function speaksVisitorLanguage(pathname: string): boolean {
  const page = pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
  return VISITOR_PAGES.some((pattern) => pattern.test(page));
}

/** What the visitor asked for: the language a link names, else the browser's closest; null when neither is ours. */
function askedLocale(request: { url: string; headers: Headers }): Locale | null {
  return localeFromQuery(new URL(request.url)) ?? localeFromHeader(request.headers.get("accept-language"));
}

/**
 * The language a page is shown in: the one a link names, else the browser's
 * closest, else `fallback` (a card's brand's, else the company's; English
 * unless set). Pages not yet translated are English.
 */
export function pageLocale(request: { url: string; headers: Headers }, fallback?: string | null): Locale {
  if (!speaksVisitorLanguage(new URL(request.url).pathname)) return DEFAULT_LOCALE;
  return askedLocale(request) ?? (isLocale(fallback) ? fallback : DEFAULT_LOCALE);
}
