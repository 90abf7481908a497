/**
 * The languages Namecard speaks (docs/decisions/047-languages.md). English is
 * the catalog the others are translated from, and the language a page falls
 * back to.
 */
export const LOCALES = ["en", "de", "fr", "es", "pt-BR", "it", "nl", "ja", "zh-CN", "ar"] as const;
export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: Locale = "en";

/** Each language by its own name, as someone who reads it looks for it. */
export const LANGUAGE_NAMES: Record<Locale, string> = {
  en: "English",
  de: "Deutsch",
  fr: "Français",
  es: "Español",
  "pt-BR": "Português (Brasil)",
  it: "Italiano",
  nl: "Nederlands",
  ja: "日本語",
  "zh-CN": "简体中文",
  ar: "العربية",
};

const RIGHT_TO_LEFT: ReadonlySet<Locale> = new Set(["ar"]);

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** The direction a page in this language is written in (`dir` on <html>). */
export function directionOf(locale: Locale): "ltr" | "rtl" {
  return RIGHT_TO_LEFT.has(locale) ? "rtl" : "ltr";
}
