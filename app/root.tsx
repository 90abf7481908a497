import type { CSSProperties, ReactNode } from "react";
import { useState } from "react";
import { IntlProvider } from "react-intl";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  type ShouldRevalidateFunctionArgs,
  useMatches,
  useNavigation,
  useRouteLoaderData,
} from "react-router";
import { hasSessionCookie } from "~/.server/http/authz";
import { takeToast, toastMiddleware } from "~/.server/http/toast";
import { CATALOGS } from "~/.server/platform/i18n";
import { getSiteSettings } from "~/.server/platform/site-settings";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { Toaster } from "~/components/toaster";
import { CARD_SCRIPT } from "~/lib/card-script";
import { brandPalette, paletteStyle } from "~/lib/color";
import { fontStylesheet } from "~/lib/fonts";
import { useT } from "~/lib/i18n/intl";
import { DEFAULT_LOCALE, directionOf, isLocale, type Locale } from "~/lib/i18n/locales";
import { pageLocale, speaksVisitorLanguage } from "~/lib/i18n/negotiate";
import { useNonce } from "~/lib/nonce";
import { DEFAULT_SETTINGS, FONT_STACKS, type FontFamily } from "~/lib/settings";
import { pickSiteSummary, useSite } from "~/lib/site";
import { THEME_BOOT_SCRIPT, themeFromCookie, useTheme } from "~/lib/theme";
import { en } from "~/locales/en";
import { previousUsernameMiddleware } from "~/middleware/previous-username.server";
import type { Route } from "./+types/root";
import "./app.css";

/** Sends old card addresses to the card; reads the toast a redirect left, and clears it once this page has shown it. */
export const middleware: Route.MiddlewareFunction[] = [previousUsernameMiddleware, toastMiddleware];

export async function loader({ context, request }: Route.LoaderArgs) {
  const site = await getSiteSettings();
  // A card's page may say otherwise (its brand's language): `pageLanguage` in its data.
  const locale = pageLocale(request, site.defaultLocale);
  return {
    // The page's language, and its words alone: the browser never receives the other catalogs.
    locale,
    messages: CATALOGS[locale],
    site: pickSiteSummary(site),
    signedIn: hasSessionCookie(request),
    toast: takeToast(context),
    // The theme chosen without JavaScript (a cookie), painted by the server.
    theme: themeFromCookie(request.headers.get("cookie")),
  };
}

/** Leaving a page in the visitor's language for one that is not yet translated (or back) reads the language again. */
export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return (
    defaultShouldRevalidate ||
    speaksVisitorLanguage(currentUrl.pathname) !== speaksVisitorLanguage(nextUrl.pathname) ||
    currentUrl.searchParams.get("lang") !== nextUrl.searchParams.get("lang")
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const site = useSite();
  const root = useRouteLoaderData<typeof loader>("root");
  const matches = useMatches();
  // The deepest page that names its own language (a card in its brand's) wins over the root's.
  const own = matches.map((match) => languageOf(match.loaderData)).findLast((language) => language !== null);
  const locale: Locale = own?.locale ?? root?.locale ?? DEFAULT_LOCALE;
  // Without the root's data (its loader failed, and the page is the error), the English words.
  const messages = own?.messages ?? root?.messages ?? en;
  // Inline scripts run only with this response's nonce (the page's Content-Security-Policy).
  const nonce = useNonce();
  // Dark from the first byte when the cookie says so. Kept as first rendered: from then on the
  // page's own script owns the classes of <html> (`dark`, and `js` when scripts run).
  const chosen = root?.theme;
  // A page that is complete as sent gets no app JavaScript, only its own small script.
  // Decided by the first render: a running app stays one.
  const [staticPage] = useState(() => matches.some((match) => isStaticForVisitor(match.handle, match.loaderData)));
  const [darkClass] = useState(() => (chosen === "dark" ? "dark" : undefined));
  const style = {
    "--brand-primary": site.primaryColor,
    "--brand-secondary": site.secondaryColor,
    "--brand-accent": site.accentColor,
    "--brand-font": FONT_STACKS[site.fontFamily as FontFamily] ?? FONT_STACKS.Inter,
    ...paletteStyle(brandPalette(site.primaryColor, site.secondaryColor)),
  } as CSSProperties;
  return (
    <html
      lang={locale}
      dir={directionOf(locale)}
      className={darkClass}
      style={style}
      data-static={staticPage ? "" : undefined}
      suppressHydrationWarning
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="color-scheme" content="light dark" />
        {/* Before any paint: no flash of the wrong theme. */}
        <script
          nonce={nonce}
          // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script of ours, with no data from anyone
          dangerouslySetInnerHTML={{ __html: THEME_BOOT_SCRIPT }}
        />
        {/* The uploaded favicon is a PNG served from this site (/uploads/…), never from elsewhere. */}
        {site.favicon ? (
          <link rel="icon" href={site.favicon} type="image/png" />
        ) : (
          <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        )}
        {/* Only the chosen font family's faces reach the browser. */}
        <link rel="stylesheet" href={fontStylesheet(site.fontFamily)} />
        <Meta />
        <Links />
      </head>
      <body className="min-h-dvh font-sans">
        <IntlProvider locale={locale} defaultLocale={DEFAULT_LOCALE} messages={messages}>
          {children}
        </IntlProvider>
        {staticPage ? (
          <script
            nonce={nonce}
            // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script of ours, with no data from anyone
            dangerouslySetInnerHTML={{ __html: CARD_SCRIPT }}
          />
        ) : (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

/** The language a page's data names for itself (`pageLanguage` on the server), if any. */
function languageOf(data: unknown): { locale: Locale; messages: Record<string, string> } | null {
  if (!data || typeof data !== "object" || !("language" in data)) return null;
  const language = (data as { language: unknown }).language as { locale?: unknown; messages?: unknown } | null;
  return language && isLocale(language.locale) && language.messages && typeof language.messages === "object"
    ? { locale: language.locale, messages: language.messages as Record<string, string> }
    : null;
}

/**
 * Pages whose route says `handle.staticForVisitor(loaderData)` are sent
 * without the app's JavaScript: the card, to a visitor who is not signed in
 * (docs/decisions/018-reused-cards-and-batched-views.md).
 */
function isStaticForVisitor(handle: unknown, data: unknown): boolean {
  const test = (handle as { staticForVisitor?: (data: unknown) => boolean } | undefined)?.staticForVisitor;
  return Boolean(test && data && test(data));
}

export function meta({ data }: Route.MetaArgs) {
  const name = data?.site.companyName ?? DEFAULT_SETTINGS.companyName;
  return [{ title: name }, { name: "description", content: data?.site.description ?? DEFAULT_SETTINGS.description }];
}

export default function App({ loaderData }: Route.ComponentProps) {
  // Applies the chosen theme and, for 'system', follows the device live.
  useTheme();
  const navigation = useNavigation();
  const t = useT();
  return (
    <>
      {navigation.state === "loading" ? (
        <div role="status" className="fixed inset-x-0 top-0 z-50 h-0.5 overflow-hidden bg-brand/20">
          <div className="h-full w-1/3 animate-pulse bg-brand" />
          <span className="sr-only">{t("root.loading")}</span>
        </div>
      ) : null}
      <Outlet />
      <Toaster toast={loaderData.toast} />
    </>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary />;
}
