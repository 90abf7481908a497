import { CircleCheck, CircleDashed, Rocket } from "lucide-react";
import { Form, Link, useLocation, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import type { GettingStarted } from "~/lib/dashboard";

const STEPS = [
  {
    key: "company",
    title: "Name your company and add its logo",
    text: "Every card, page and mail says it until your brands have their own.",
    to: "/admin/settings/general",
    action: "Open General settings",
  },
  {
    key: "brands",
    title: "Add your brands",
    text: "Each with its colours, logo and e-mail domains: people of a domain land in its brand.",
    to: "/admin/brands",
    action: "Open Brands",
  },
  {
    key: "joining",
    title: "Choose who can join",
    text: "Everyone at your domains, only the people you prepare a card for, or anyone.",
    to: "/admin/settings/joining",
    action: "Open Who can join",
  },
  {
    key: "people",
    title: "Add your people and invite them",
    text: "Import a file from your directory (Google Workspace, Entra ID, a spreadsheet), then send the invitations.",
    to: "/admin/import",
    action: "Import people",
  },
] as const;

/** The first administrator's list of what a new installation needs, each step ticked once done. */
export function GettingStartedPanel({ setup }: { setup: GettingStarted }) {
  const navigation = useNavigation();
  const location = useLocation();
  const hiding = navigation.formData?.get("intent") === "finish-setup";
  const left = STEPS.filter((step) => !setup.steps[step.key]).length;
  return (
    <section
      aria-labelledby="getting-started-title"
      className="space-y-4 rounded-2xl border border-brand/30 bg-white p-6 shadow-sm dark:border-brand/40 dark:bg-slate-900"
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex items-start gap-3">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand/10 text-brand-ink">
            <Rocket aria-hidden className="size-5" />
          </span>
          <div>
            <h2 id="getting-started-title" className="text-lg font-semibold">
              Set up Namecard
            </h2>
            <p className="text-sm text-slate-600 dark:text-slate-400">
              {left === 1 ? "1 step left" : `${left} steps left`} before your people get their cards.
            </p>
          </div>
        </div>
        <Form method="post" action="/admin/dashboard">
          <input type="hidden" name="intent" value="finish-setup" />
          <input type="hidden" name="redirectTo" value={location.pathname} />
          <Button type="submit" variant="secondary" size="sm" disabled={hiding}>
            {hiding ? "Hiding..." : "Hide this list"}
          </Button>
        </Form>
      </div>
      <ol className="divide-y divide-slate-200 dark:divide-slate-800">
        {STEPS.map((step) => {
          const done = setup.steps[step.key];
          return (
            <li key={step.key} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
              <div className="flex items-start gap-3">
                {done ? (
                  <CircleCheck aria-hidden className="mt-0.5 size-5 shrink-0 text-emerald-600 dark:text-emerald-400" />
                ) : (
                  <CircleDashed aria-hidden className="mt-0.5 size-5 shrink-0 text-slate-400" />
                )}
                <div>
                  <p className="font-medium text-slate-900 dark:text-white">
                    {step.title}
                    <span className="sr-only">{done ? " (done)" : " (to do)"}</span>
                  </p>
                  <p className="text-sm text-slate-600 dark:text-slate-400">{step.text}</p>
                </div>
              </div>
              {done ? null : (
                <Link
                  to={step.to}
                  className="shrink-0 pl-8 text-sm font-medium text-brand-ink underline-offset-2 hover:underline sm:pl-0"
                >
                  {step.action}
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
