import { createIntl, createIntlCache, type IntlShape } from "react-intl";
import { DEFAULT_LOCALE, isLocale, type Locale } from "~/lib/i18n/locales";
import { pageLocale } from "~/lib/i18n/negotiate";
import { ar } from "~/locales/ar";
import { de } from "~/locales/de";
import { type Catalog, en, type MessageId } from "~/locales/en";
import { es } from "~/locales/es";
import { fr } from "~/locales/fr";
import { it } from "~/locales/it";
import { ja } from "~/locales/ja";
import { nl } from "~/locales/nl";
import { ptBR } from "~/locales/pt-BR";
import { zhCN } from "~/locales/zh-CN";

/** Every catalog, on the server only: a page sends the browser its own language's. */
export const CATALOGS: Record<Locale, Catalog> = {
  en,
  de,
  fr,
  es,
  "pt-BR": ptBR,
  it,
  nl,
  ja,
  "zh-CN": zhCN,
  ar,
};

const cache = createIntlCache();
const translators = new Map<Locale, IntlShape>();

/** Formats messages, numbers and dates in one language, outside React (the cached card's count, a mail). */
function translatorFor(locale: Locale): IntlShape {
  let intl = translators.get(locale);
  if (!intl) {
    intl = createIntl({ locale, defaultLocale: DEFAULT_LOCALE, messages: CATALOGS[locale] }, cache);
    translators.set(locale, intl);
  }
  return intl;
}

/** One message in one language. */
export function translate(locale: Locale, id: MessageId, values?: Record<string, string | number>): string {
  return translatorFor(locale).formatMessage({ id }, values);
}

/**
 * The language of a card's page for this request: the one the visitor asked
 * for (a link, their browser), else the card's brand's, else the company's.
 */
export function cardLocale(
  request: Request,
  brand: { defaultLocale: string | null } | null,
  site: { defaultLocale: string },
): Locale {
  return pageLocale(request, isLocale(brand?.defaultLocale) ? brand.defaultLocale : site.defaultLocale);
}

/**
 * What a card's page returns so that it is shown in `locale` where that is
 * not the language the root chose without knowing the card (its brand's
 * own): the language and its words. Null when the root's is the card's.
 */
export function pageLanguage(request: Request, locale: Locale, site: { defaultLocale: string }) {
  return locale === pageLocale(request, site.defaultLocale) ? null : { locale, messages: CATALOGS[locale] };
}
