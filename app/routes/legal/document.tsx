import { ArrowLeft, FileText } from "lucide-react";
import { Link } from "react-router";
import { notFound } from "~/.server/responses";
import { getSiteSettings } from "~/.server/settings/settings";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { StatusPage } from "~/components/status-page";
import { ThemeSwitch } from "~/components/theme-switch";
import type { Route } from "./+types/document";

/** The terms and the privacy policy the administrator published in the settings. */
export async function loader({ request }: Route.LoaderArgs) {
  const kind = new URL(request.url).pathname === "/privacy" ? "privacy" : "terms";
  const settings = await getSiteSettings();
  const text = kind === "privacy" ? settings.privacyPolicy : settings.termsOfService;
  const title = kind === "privacy" ? "Privacy Policy" : "Terms of Service";
  if (!text) notFound(`${title} has not been published.`);
  return { title, text, company: settings.companyName };
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
        <div className="whitespace-pre-line leading-relaxed text-slate-700 dark:text-slate-300">{loaderData.text}</div>
      </article>
    </div>
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
