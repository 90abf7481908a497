import { ArrowLeft, ArrowUpRight } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import { Link } from "react-router";
import { Logo, SiteFooter } from "~/components/auth-shell";
import { ThemeSwitch } from "~/components/theme-switch";
import { buttonClasses } from "~/components/ui/button";
import { useT } from "~/lib/i18n/intl";
import { useSignedIn, useSite } from "~/lib/site";

/**
 * A page that says something went wrong (not found, not published, an error)
 * in the product's frame: the company's logo and name, the theme switch, the
 * footer, and a way onward that never sends a visitor to the sign-in page.
 */
export function StatusPage({
  icon,
  title,
  children,
  member,
  extra,
}: {
  icon: ReactNode;
  title: string;
  children: ReactNode;
  /** Where a signed-in member goes on from here. */
  member: { to: string; label: string };
  /** Another action, shown before the way onward. */
  extra?: ReactNode;
}) {
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="flex h-16 items-center justify-between gap-3 border-b border-slate-200 bg-white/85 px-4 sm:px-6 dark:border-slate-800 dark:bg-slate-950/85">
        <SiteMark />
        <ThemeSwitch />
      </header>
      <main className="flex flex-1 items-center justify-center px-6 py-16">
        <div className="max-w-md space-y-4 text-center">
          <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400">
            {icon}
          </span>
          <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
          <div className="text-slate-600 dark:text-slate-400">{children}</div>
          <div className="flex flex-col items-center justify-center gap-3 pt-2 sm:flex-row">
            {extra}
            <WayOnward member={member} />
          </div>
        </div>
      </main>
      <SiteFooter className="px-4 pb-6" />
    </div>
  );
}

/**
 * The company's logo and name. It leads home for a member; for a visitor, to
 * the company's website when there is one (home would only ask them to sign in).
 */
function SiteMark() {
  const site = useSite();
  const signedIn = useSignedIn();
  const className = "flex min-w-0 items-center gap-2.5 font-semibold";
  const content = (
    <>
      <Logo className="h-8" />
      <span className="truncate">{site.companyName}</span>
    </>
  );
  if (signedIn) {
    return (
      <Link to="/" className={className}>
        {content}
      </Link>
    );
  }
  if (site.website) {
    return (
      <a href={site.website} className={className}>
        {content}
      </a>
    );
  }
  return <span className={className}>{content}</span>;
}

/**
 * A member goes on to `member`; a visitor to the company's website, or back
 * where they came from when there is no website and they came from somewhere.
 */
function WayOnward({ member }: { member: { to: string; label: string } }) {
  const site = useSite();
  const signedIn = useSignedIn();
  const t = useT();
  if (signedIn) {
    return (
      <Link to={member.to} className={buttonClasses("primary")}>
        {member.label}
      </Link>
    );
  }
  if (site.website) {
    return (
      <a href={site.website} className={buttonClasses("primary")}>
        {t("status.visit", { host: hostOf(site.website) })}
        <ArrowUpRight aria-hidden className="size-4 rtl:-scale-x-100" />
      </a>
    );
  }
  return <HistoryBack />;
}

/** A website as people say it: its host, without `www.`. */
export function hostOf(url: string) {
  try {
    return new URL(url).host.replace(/^www\./, "");
  } catch {
    return url;
  }
}

/** "Go back", shown once the page knows there is a page to go back to. */
function HistoryBack() {
  const [canGoBack, setCanGoBack] = useState(false);
  const t = useT();
  useEffect(() => setCanGoBack(window.history.length > 1), []);
  if (!canGoBack) return null;
  return (
    <button type="button" onClick={() => window.history.back()} className={buttonClasses("secondary")}>
      <ArrowLeft aria-hidden className="size-4 rtl:-scale-x-100" />
      {t("status.goBack")}
    </button>
  );
}
