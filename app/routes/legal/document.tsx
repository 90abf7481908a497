import { ArrowLeft, FileText } from "lucide-react";
import { Link } from "react-router";
import { notFound } from "~/.server/http/responses";
import { leadRetentionMonths } from "~/.server/leads/retention";
import { getSiteSettings } from "~/.server/platform/site-settings";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { StatusPage } from "~/components/status-page";
import { ThemeSwitch } from "~/components/theme-switch";
import type { Route } from "./+types/document";

/**
 * The terms and the privacy policy the administrator published in the
 * settings. The privacy page always says what becomes of the details a
 * visitor shares from a card, which Namecard itself decides (how long they
 * are kept is the company's setting), so it exists before the company's own
 * policy is published.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const kind = new URL(request.url).pathname === "/privacy" ? "privacy" : "terms";
  const settings = await getSiteSettings();
  const text = kind === "privacy" ? settings.privacyPolicy : settings.termsOfService;
  const title = kind === "privacy" ? "Privacy Policy" : "Terms of Service";
  if (!text && kind === "terms") notFound(`${title} has not been published.`);
  const leads = kind === "privacy" ? { months: await leadRetentionMonths() } : null;
  return { title, text, company: settings.companyName, leads };
}

export function meta({ data: loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `${loaderData.title} · ${loaderData.company}` : "Not published" }];
}

export default function LegalDocument({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:px-6">
      <div className="mb-8 flex items-center justify-between">
        <Link to="/" className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-ink hover:underline">
          <ArrowLeft aria-hidden className="size-4" /> {loaderData.company}
        </Link>
        <ThemeSwitch />
      </div>
      <article className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-10 dark:border-slate-800 dark:bg-slate-900">
        <h1 className="mb-6 text-3xl font-semibold tracking-tight">{loaderData.title}</h1>
        {loaderData.text ? (
          <div className="whitespace-pre-line leading-relaxed text-slate-700 dark:text-slate-300">
            {loaderData.text}
          </div>
        ) : null}
        {loaderData.leads ? (
          <LeadsSection company={loaderData.company} months={loaderData.leads.months} first={!loaderData.text} />
        ) : null}
      </article>
    </div>
  );
}

/** What becomes of the details a visitor shares from a card (docs/decisions/034-leads.md). */
function LeadsSection({ company, months, first }: { company: string; months: number; first: boolean }) {
  const kept = months === 1 ? "1 month" : `${months} months`;
  return (
    <section
      aria-labelledby="leads-privacy"
      className={first ? "" : "mt-10 border-t border-slate-200 pt-8 dark:border-slate-800"}
    >
      <h2 id="leads-privacy" className="mb-3 text-xl font-semibold">
        Details you share from a card
      </h2>
      <div className="space-y-3 leading-relaxed text-slate-700 dark:text-slate-300">
        <p>
          When you share your details from someone's card, only you decide to: the form asks for your agreement each
          time. Your name, the email address or phone number you give, and your company, job title and note go to the
          card's owner by e-mail and are kept with the words you agreed to, when you agreed, and whether you came by the
          card's page or its QR code.
        </p>
        <p>
          The card's owner sees them on their own Leads page, to get back in touch with you. {company}'s administrators
          see how many leads a card has; they read the leads themselves only if {company} allows it.
        </p>
        <p>
          {company} keeps them for {kept} at most, then they are deleted. To have them erased sooner, from every card,
          ask {company}: an administrator erases everything shared with your email address at once.
        </p>
      </div>
    </section>
  );
}

export function ErrorBoundary() {
  return (
    <RouteErrorBoundary
      notFound={
        <StatusPage
          icon={<FileText aria-hidden className="size-7" />}
          title="Not published"
          member={{ to: "/", label: "Go to the home page" }}
        >
          <p>This document has not been published yet.</p>
        </StatusPage>
      }
    />
  );
}
