import { createIntl, createIntlCache, type IntlShape } from "react-intl";
import { DEFAULT_LOCALE, type Locale } from "~/lib/i18n/locales";
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
