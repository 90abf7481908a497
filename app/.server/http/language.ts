import { isLocale, type Locale } from "~/lib/i18n/locales";
import { pageLocale } from "~/lib/i18n/negotiate";
import { CATALOGS } from "../platform/i18n";

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
