import { match } from "@formatjs/intl-localematcher";
import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from "./locales";

/** A header longer than any browser sends is read only this far. */
const MAX_HEADER_LENGTH = 512;
/** Languages read from one header at most. */
const MAX_RANGES = 16;
/** What `match` answers when none of ours is close enough. */
const NO_MATCH = "und";
/** The languages of ours, by their primary subtag: other languages are never matched, so never looked at. */
const PRIMARY = new Set(LOCALES.map((locale) => locale.split("-")[0]?.toLowerCase()));
/** The scripts that tell one of our languages from another (simplified and traditional Chinese). */
const SCRIPTS = new Set(["hans", "hant"]);
/** Where the region decides: Portugal's Portuguese is not Brazil's, Taiwan's Chinese is not China's. */
const REGIONAL = new Set(["pt", "zh"]);

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
    const q = parameters.find((parameter) => /^\s*q\s*=/i.test(parameter));
    const weight = q === undefined ? 1 : weightOf(q);
    if (!tag || tag === "*" || !(weight > 0) || !isWellFormed(tag)) continue;
    ranges.push({ tag, weight, order });
  }
  return ranges.sort((a, b) => b.weight - a.weight || a.order - b.order).map((range) => range.tag);
}

/** A range's weight (`q=0.8`, any case), or NaN when it is not one: such a range is left out. */
function weightOf(parameter: string): number {
  const value = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(parameter)?.[1];
  return value === undefined ? Number.NaN : Number(value);
}

/**
 * A tag as the matcher needs it, or null for a language of none of ours: its
 * language, the script where it tells ours apart and the region where it
 * does. What the matcher is given is thus one of a few thousand tags, however
 * many a browser (or anyone) invents: the matcher remembers each it saw.
 */
function reduced(tag: string): string | null {
  const [language = "", ...rest] = tag.toLowerCase().split("-");
  if (!PRIMARY.has(language)) return null;
  const script = rest.find((part) => part.length === 4 && SCRIPTS.has(part));
  const region = REGIONAL.has(language) ? rest.find((part) => /^[a-z]{2}$/.test(part)) : undefined;
  return [language, script && script[0]?.toUpperCase() + script.slice(1), region?.toUpperCase()]
    .filter(Boolean)
    .join("-");
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
  const requested = requestedLanguages(header)
    .map(reduced)
    .filter((tag) => tag !== null);
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
const VISITOR_PAGES = [/^\/profile\/(?!edit\/?$)[^/]+\/?$/i, /^\/profile\/[^/]+\/share-back\/?$/i, /^\/qr\/[^/]+\/?$/i];

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

/**
 * A link from one of a card's pages to another, keeping the language a link
 * named (`?lang=`): a visitor who came in French stays in French.
 */
export function withLanguage(href: string, named: Locale | null): string {
  if (!named) return href;
  return `${href}${href.includes("?") ? "&" : "?"}lang=${encodeURIComponent(named)}`;
}
