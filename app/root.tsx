import type { CSSProperties, ReactNode } from "react";
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useNavigation } from "react-router";
import { getSiteSettings } from "~/.server/settings";
import { DEFAULT_SETTINGS, FONT_STACKS } from "~/lib/settings";
import { pickSiteSummary, useSite } from "~/lib/site";
import { THEME_BOOT_SCRIPT, useTheme } from "~/lib/theme";
import type { Route } from "./+types/root";
import "./app.css";

export async function loader() {
  return { site: pickSiteSummary(await getSiteSettings()) };
}

export function Layout({ children }: { children: ReactNode }) {
  const site = useSite();
  const style = {
    "--brand-primary": site.primaryColor,
    "--brand-secondary": site.secondaryColor,
    "--brand-accent": site.accentColor,
    "--brand-font": FONT_STACKS[site.fontFamily] ?? FONT_STACKS.Inter,
  } as CSSProperties;
  return (
    <html lang="en" style={style} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="color-scheme" content="light dark" />
        {/* Before any paint: no flash of the wrong theme (spec §4). */}
        <script dangerouslySetInnerHTML={{ __html: THEME_BOOT_SCRIPT }} />
        {site.favicon ? (
          <link rel="icon" href={site.favicon} />
        ) : (
          <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        )}
        <Meta />
        <Links />
      </head>
      <body className="min-h-dvh font-sans">
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export function meta({ data }: Route.MetaArgs) {
  const name = data?.site.companyName ?? DEFAULT_SETTINGS.companyName;
  return [{ title: name }, { name: "description", content: data?.site.description ?? DEFAULT_SETTINGS.description }];
}

export default function App() {
  // Applies the chosen theme and, for 'system', follows the device live (spec §4).
  useTheme();
  const navigation = useNavigation();
  return (
    <>
      {navigation.state === "loading" ? (
        <div role="status" className="fixed inset-x-0 top-0 z-50 h-0.5 overflow-hidden bg-brand/20">
          <div className="h-full w-1/3 animate-pulse bg-brand" />
          <span className="sr-only">Loading...</span>
        </div>
      ) : null}
      <Outlet />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  let title = "Something went wrong";
  let detail = "An unexpected error occurred. Please try again in a moment.";
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) {
      title = "Page not found";
      detail = "The page you're looking for doesn't exist or has been moved.";
    } else if (error.status === 403) {
      title = "Not allowed";
      detail = "You do not have permission to see this page.";
    } else {
      title = `${error.status} ${error.statusText}`;
    }
  } else if (import.meta.env.DEV && error instanceof Error) {
    detail = error.message;
  }
  return (
    <main className="mx-auto flex min-h-dvh max-w-md flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="text-slate-600 dark:text-slate-400">{detail}</p>
      <a href="/" className="rounded-lg bg-brand-solid px-4 py-2 text-sm font-medium text-white">
        Go to the home page
      </a>
    </main>
  );
}
