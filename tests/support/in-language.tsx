import type { ReactNode } from "react";
import { IntlProvider } from "react-intl";
import { CATALOGS } from "~/.server/platform/i18n";
import type { Locale } from "~/lib/i18n/locales";

/** A component as a page in `locale` shows it: with that language's catalog, as the root gives every page. */
export function inLanguage(ui: ReactNode, locale: Locale = "en") {
  return (
    <IntlProvider locale={locale} defaultLocale="en" messages={CATALOGS[locale]}>
      {ui}
    </IntlProvider>
  );
}
