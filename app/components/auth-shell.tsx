import { MailCheck } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { brandScope } from "~/components/brand-badge";
import { FallbackImage } from "~/components/fallback-image";
import { ThemeSwitch } from "~/components/theme-switch";
import { Alert } from "~/components/ui/alert";
import { cn } from "~/lib/cn";
import { useT } from "~/lib/i18n/intl";
import { useSite } from "~/lib/site";

/** A brand a visitor screen wears instead of the company's (the brand of the card an invitation gives). */
export type ShellBrand = { name: string; primaryColor: string; secondaryColor: string; logoUrl: string | null };

/** The frame of the visitor screens: a brand panel beside the form on wide screens. */
export function AuthShell({ children, brand }: { children: ReactNode; brand?: ShellBrand | null }) {
  const site = useSite();
  const scope = brandScope(brand ?? null);
  const name = brand?.name ?? site.companyName;
  const logo = (className?: string) =>
    brand ? (
      brand.logoUrl ? (
        <FallbackImage src={brand.logoUrl} alt="" className={`${className ?? "h-9"} w-auto max-w-28 object-contain`} />
      ) : null
    ) : (
      <Logo className={className} />
    );
  return (
    <div className={cn("grid min-h-dvh lg:grid-cols-2", scope.className)} style={scope.style}>
      <aside className="brand-gradient relative hidden flex-col justify-between p-12 text-on-banner lg:flex">
        <Link to="/" className="flex items-center gap-3 text-lg font-semibold">
          {logo()}
          {name}
        </Link>
        <div className="max-w-md space-y-4">
          <p className="text-3xl leading-tight font-semibold">Your card, your colleagues, one link away.</p>
          <p>{site.description}</p>
        </div>
        <p className="text-sm">Cards that save cleanly into any phone.</p>
      </aside>
      <div className="flex flex-col">
        <header className="flex items-center justify-between p-4 sm:p-6">
          <Link to="/" className="flex items-center gap-2 font-semibold lg:invisible">
            {logo("h-8")}
            {name}
          </Link>
          <ThemeSwitch />
        </header>
        <main className="flex flex-1 items-start justify-center px-4 pt-4 pb-16 sm:items-center sm:px-6">
          <div className="w-full max-w-sm">{children}</div>
        </main>
        <SiteFooter className="px-4 pb-6" />
      </div>
    </div>
  );
}

/** "Check your email": the screen once a link has gone out; `children` say where to, and what next. */
export function MailSentScreen({ children }: { children: ReactNode }) {
  return (
    <AuthShell>
      <div className="space-y-5 text-center">
        <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-brand/10 text-brand-ink">
          <MailCheck aria-hidden className="size-7" />
        </span>
        <h1 className="text-2xl font-semibold tracking-tight">Check your email</h1>
        {children}
      </div>
    </AuthShell>
  );
}

/**
 * "This link did not work": a mailed link that is invalid, used, replaced or
 * expired. `problem` says which, `advice` what to do; `actions` are the way on
 * (sign in, unless they say otherwise).
 */
export function LinkFailedScreen({
  problem,
  advice,
  actions,
}: {
  problem: ReactNode;
  advice: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <AuthShell>
      <div className="space-y-4">
        <h1 className="text-2xl font-semibold tracking-tight">This link did not work</h1>
        <Alert tone="error">{problem}</Alert>
        <p className="text-slate-600 dark:text-slate-400">{advice}</p>
        {actions ?? (
          <Link to="/auth" className="inline-block font-medium text-brand-ink hover:underline">
            Go to sign in
          </Link>
        )}
      </div>
    </AuthShell>
  );
}

/**
 * The company's logo as uploaded in the settings (the dark-mode logo in dark
 * mode, when there is one), or the product's glyph. `className` sets its height;
 * a wide logo keeps its proportions. It sits beside the company's name, so it is decorative.
 */
export function Logo({ className = "h-9" }: { className?: string }) {
  const site = useSite();
  const glyph = (visibility = "") => (
    <img src="/favicon.svg" alt="" className={`${className} aspect-square shrink-0 rounded-lg ${visibility}`} />
  );
  if (!site.primaryLogo) return glyph();
  const dark = site.darkModeLogo;
  const uploaded = `${className} w-auto max-w-28 shrink-0 object-contain`;
  // A file gone from the store shows the product's glyph, not a broken image.
  return (
    <>
      <FallbackImage
        src={site.primaryLogo}
        alt=""
        className={`${uploaded} ${dark ? "dark:hidden" : ""}`}
        fallback={glyph(dark ? "dark:hidden" : "")}
      />
      {dark ? (
        <FallbackImage
          src={dark}
          alt=""
          className={`${uploaded} hidden dark:block`}
          fallback={glyph("hidden dark:block")}
        />
      ) : null}
    </>
  );
}

/** The footer: footer logo, company name and the published legal texts. */
export function SiteFooter({ className = "" }: { className?: string }) {
  const site = useSite();
  const t = useT();
  return (
    <footer
      className={`flex flex-wrap items-center justify-center gap-x-4 gap-y-2 text-xs text-slate-500 dark:text-slate-400 ${className}`}
    >
      <span className="inline-flex items-center gap-2">
        {site.footerLogo ? <FallbackImage src={site.footerLogo} alt="" className="h-5 w-auto" /> : null}©{" "}
        {site.companyName}
      </span>
      {site.hasTerms ? (
        <a href="/terms" className="hover:underline">
          {t("footer.terms")}
        </a>
      ) : null}
      {site.hasPrivacy ? (
        <a href="/privacy" className="hover:underline">
          {t("footer.privacy")}
        </a>
      ) : null}
    </footer>
  );
}
