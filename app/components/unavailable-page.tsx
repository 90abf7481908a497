import { CloudOff } from "lucide-react";
import { buttonClasses } from "~/components/ui/button";
import { THEME_BOOT_SCRIPT } from "~/lib/theme";

/**
 * The whole document a visitor gets while the database is unavailable: the
 * product's stylesheet and theme, one calm sentence, a way to try again. It is
 * rendered on the server only (no script of the app runs), and reloads itself
 * after `retryAfter` seconds. `cause` says what is unavailable: the database,
 * or room on the server's disk for a change (reading still works then).
 */
export function UnavailablePage({
  stylesheets,
  retryAfter,
  retryHref,
  nonce,
  cause = "database",
}: {
  stylesheets: string[];
  /** The response's script nonce: the theme script runs under the page policy. */
  nonce: string;
  retryAfter: number;
  retryHref: string;
  cause?: "database" | "disk";
}) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="color-scheme" content="light dark" />
        <meta name="robots" content="noindex" />
        <meta httpEquiv="refresh" content={String(retryAfter)} />
        <script
          nonce={nonce}
          // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script of ours, with no data from anyone
          dangerouslySetInnerHTML={{ __html: THEME_BOOT_SCRIPT }}
        />
        <title>{cause === "disk" ? "Changes are paused" : "Temporarily unavailable"}</title>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {stylesheets.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
      </head>
      <body className="min-h-dvh font-sans">
        <main className="flex min-h-dvh items-center justify-center p-6">
          <div className="max-w-sm space-y-4 text-center">
            <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400">
              <CloudOff aria-hidden className="size-7" />
            </span>
            <h1 className="text-2xl font-semibold tracking-tight">
              {cause === "disk" ? "Changes are paused" : "Temporarily unavailable"}
            </h1>
            <p className="text-slate-600 dark:text-slate-400">
              {cause === "disk"
                ? "The server's disk is full, so Namecard cannot save anything right now. Nothing is lost, and cards and the directory can still be read: this page tries again by itself in a moment."
                : "Namecard cannot reach its database right now. Nothing is lost: this page tries again by itself in a moment."}
            </p>
            <a href={retryHref} className={buttonClasses("secondary")}>
              Try again
            </a>
          </div>
        </main>
      </body>
    </html>
  );
}
