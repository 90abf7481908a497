import { BarChart3, Eye, TrendingUp, Users } from "lucide-react";
import { isRouteErrorResponse, Link, useRevalidator } from "react-router";
import { reachOf } from "~/.server/access/scope";
import {
  getOverviewStats,
  getProfilesByBrand,
  getRegistrationsByWeek,
  getTopProfiles,
  getViewsByDay,
  getViewsBySource,
} from "~/.server/analytics/stats";
import { requireAction } from "~/.server/http/authz";
import { leadsByCard } from "~/.server/leads/owner";
import { adminsSeeLeads } from "~/.server/leads/retention";
import { DownloadButton } from "~/components/download-button";
import { PageHeader } from "~/components/page-header";
import { RefreshButton } from "~/components/refresh-button";
import { Button } from "~/components/ui/button";
import { cn } from "~/lib/cn";
import { fullName } from "~/lib/names";
import type { LiveHandle } from "~/lib/realtime";
import { NO_BRAND_COLOR } from "~/lib/settings";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/analytics";

/** Shows every card's view count: every view concerns it. */
export const handle: LiveHandle = { live: () => true };

export const meta: Route.MetaFunction = () => [{ title: "Analytics" }];

export async function loader({ context }: Route.LoaderArgs) {
  const reach = reachOf(requireAction(context.get(viewerContext), "read:analytics"));
  const [stats, byBrand, top, registrations, viewsByDay, sources, leads, readLeads] = await Promise.all([
    getOverviewStats(reach),
    getProfilesByBrand(reach),
    getTopProfiles(reach, 8),
    getRegistrationsByWeek(reach),
    getViewsByDay(reach),
    getViewsBySource(reach),
    leadsByCard(reach, 8),
    adminsSeeLeads(),
  ]);
  return { stats, byBrand, top, registrations, viewsByDay, sources, leads, readLeads };
}

const SHORT_DATE = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
const day = (iso: string) => SHORT_DATE.format(new Date(`${iso}T00:00:00Z`));

export default function Analytics({ loaderData }: Route.ComponentProps) {
  const { stats, byBrand, top, registrations, viewsByDay, sources, leads, readLeads } = loaderData;
  const totalRegistrations = registrations.reduce((sum, week) => sum + week.count, 0);
  const totalSourceViews = sources.qr + sources.link + sources.directory;
  const tiles = [
    { label: "Total Profiles", value: stats.totalProfiles, Icon: Users },
    { label: "Active Brands", value: stats.activeBrands, Icon: BarChart3 },
    { label: "Total Views", value: stats.totalViews, Icon: Eye },
    { label: "Active Users", value: stats.activeProfiles, Icon: TrendingUp },
  ];
  const maxBrand = Math.max(1, ...byBrand.map((brand) => brand.count));
  return (
    <div className="space-y-8">
      <PageHeader
        title="Analytics"
        description="Platform insights and user engagement metrics."
        actions={
          <>
            <RefreshButton />
            <DownloadButton
              href="/admin/export/analytics.csv"
              label="Export CSV"
              done="Analytics data exported successfully!"
            />
          </>
        }
      />

      <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {tiles.map(({ label, value, Icon }) => (
          <div
            key={label}
            className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900"
          >
            <dt className="flex items-center gap-2 text-sm font-medium text-slate-500 dark:text-slate-400">
              <Icon aria-hidden className="size-4" />
              {label}
            </dt>
            <dd className="mt-2 text-3xl font-semibold tracking-tight">{value.toLocaleString("en")}</dd>
          </div>
        ))}
      </dl>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Panel title="Profiles by Brand">
          {byBrand.length === 0 ? (
            <Empty text="No active brands yet." />
          ) : (
            <ul className="space-y-3">
              {byBrand.map((brand) => (
                <li key={brand.id}>
                  <div className="mb-1 flex justify-between gap-3 text-sm">
                    <span className="flex min-w-0 items-center gap-2 wrap-anywhere">
                      <span
                        aria-hidden
                        className="size-2.5 shrink-0 rounded-full"
                        style={{ backgroundColor: brand.color || NO_BRAND_COLOR }}
                      />
                      {brand.name}
                    </span>
                    <span className="tabular-nums text-slate-600 dark:text-slate-400">{brand.count}</span>
                  </div>
                  <div className="h-2 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800" aria-hidden>
                    <div
                      className="h-full rounded-full"
                      style={{
                        width: `${(brand.count / maxBrand) * 100}%`,
                        backgroundColor: brand.color || NO_BRAND_COLOR,
                      }}
                    />
                  </div>
                </li>
              ))}
            </ul>
          )}
        </Panel>

        <Panel title="Most Viewed Profiles">
          {top.length === 0 ? (
            <Empty text="No views yet." />
          ) : (
            <ol className="divide-y divide-slate-100 dark:divide-slate-800">
              {top.map((person, index) => (
                <li key={person.id} className="flex items-center gap-3 py-2.5 text-sm">
                  <span className="w-5 text-right font-semibold text-slate-500 tabular-nums dark:text-slate-400">
                    {index + 1}
                  </span>
                  <span className="min-w-0 flex-1">
                    <span className="block font-medium wrap-anywhere">{fullName(person)}</span>
                    <span className="block text-slate-500 wrap-anywhere dark:text-slate-400">
                      @{person.username}
                      {person.brandName ? ` · ${person.brandName}` : ""}
                    </span>
                  </span>
                  <span className="tabular-nums">
                    {person.views.toLocaleString("en")} {person.views === 1 ? "view" : "views"}
                  </span>
                </li>
              ))}
            </ol>
          )}
        </Panel>
      </div>

      <Panel title="Leads by Card">
        {leads.total === 0 ? (
          <Empty text="No visitor has shared their details from a card yet." />
        ) : (
          <>
            <p className="mb-3 text-sm text-slate-500 dark:text-slate-400">
              {leads.total.toLocaleString("en")} {leads.total === 1 ? "lead" : "leads"} in all.{" "}
              {readLeads
                ? "The settings let administrators read them."
                : "Only each card's owner reads their leads (Settings → Legal & privacy)."}
            </p>
            <ol className="divide-y divide-slate-100 dark:divide-slate-800">
              {leads.top.map((card) => (
                <li key={card.username} className="flex items-center gap-3 py-2.5 text-sm">
                  <span className="min-w-0 flex-1 font-medium wrap-anywhere">
                    {readLeads ? (
                      <Link
                        to={`/leads?card=${encodeURIComponent(card.username)}`}
                        className="text-brand-ink hover:underline"
                      >
                        {fullName(card)}
                      </Link>
                    ) : (
                      fullName(card)
                    )}
                  </span>
                  <span className="tabular-nums">
                    {card.leads.toLocaleString("en")} {card.leads === 1 ? "lead" : "leads"}
                  </span>
                </li>
              ))}
            </ol>
          </>
        )}
      </Panel>

      {totalRegistrations > 0 ? (
        <Panel title="New User Registrations (Last 30 Days)">
          <BarChart
            label="New registrations per week, weeks starting on Sunday"
            bars={registrations.map((week) => ({
              key: week.week,
              label: `Week of ${day(week.week)}`,
              short: day(week.week),
              value: week.count,
            }))}
          />
        </Panel>
      ) : null}

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <Panel title="Views per Day (Last 30 Days)" className="lg:col-span-2">
          <BarChart
            label="Card views per day over the last 30 days"
            bars={viewsByDay.map((entry, index) => ({
              key: entry.day,
              label: day(entry.day),
              short: index % 5 === 0 ? day(entry.day) : "",
              value: entry.count,
            }))}
            thin
          />
        </Panel>
        <Panel title="Views by Source">
          {totalSourceViews === 0 ? (
            <Empty text="No views recorded yet." />
          ) : (
            <ul className="space-y-4">
              {(
                [
                  ["QR code scans", sources.qr],
                  ["Shared links", sources.link],
                  ["Directory", sources.directory],
                ] as const
              ).map(([label, count]) => (
                <li key={label}>
                  <div className="mb-1 flex justify-between text-sm">
                    <span>{label}</span>
                    <span className="tabular-nums text-slate-600 dark:text-slate-400">
                      {count.toLocaleString("en")} ({Math.round((count / totalSourceViews) * 100)}%)
                    </span>
                  </div>
                  <div className="h-2 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800" aria-hidden>
                    <div
                      className="h-full rounded-full bg-brand-solid"
                      style={{ width: `${(count / totalSourceViews) * 100}%` }}
                    />
                  </div>
                </li>
              ))}
            </ul>
          )}
        </Panel>
      </div>
    </div>
  );
}

function Panel({ title, children, className }: { title: string; children: React.ReactNode; className?: string }) {
  return (
    <section
      className={cn(
        "min-w-0 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900",
        className,
      )}
    >
      <h2 className="mb-4 text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}

function Empty({ text }: { text: string }) {
  return <p className="py-6 text-center text-sm text-slate-500 dark:text-slate-400">{text}</p>;
}

/** A plain bar chart: bars for sighted people, a table for screen readers. */
function BarChart({
  bars,
  label,
  thin,
}: {
  bars: { key: string; label: string; short: string; value: number }[];
  label: string;
  thin?: boolean;
}) {
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  return (
    <figure>
      <div aria-hidden className="flex h-44 items-end gap-1.5">
        {bars.map((bar) => (
          <div
            key={bar.key}
            className="flex h-full flex-1 flex-col items-center justify-end gap-1"
            title={`${bar.label}: ${bar.value}`}
          >
            {!thin ? (
              <span className="text-xs tabular-nums text-slate-600 dark:text-slate-400">{bar.value}</span>
            ) : null}
            <div
              className="w-full rounded-t-md bg-brand-solid/85"
              style={{ height: `${(bar.value / max) * 100}%`, minHeight: bar.value ? 3 : 1 }}
            />
          </div>
        ))}
      </div>
      <div aria-hidden className="mt-2 flex gap-1.5">
        {bars.map((bar) => (
          // Centred under its bar and free to be wider than it: a thin bar's date is not cut to "O…".
          <span key={bar.key} className="relative h-4 flex-1 text-[11px] text-slate-500 dark:text-slate-400">
            <span className="absolute left-1/2 -translate-x-1/2 whitespace-nowrap">{bar.short}</span>
          </span>
        ))}
      </div>
      {/* A table is as wide as its content whatever its width says: a 1 px box around it keeps it from widening the page. */}
      <div className="sr-only">
        <table>
          <caption>{label}</caption>
          <tbody>
            {bars.map((bar) => (
              <tr key={bar.key}>
                <th scope="row">{bar.label}</th>
                <td>{bar.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const revalidator = useRevalidator();
  if (isRouteErrorResponse(error) && error.status === 403) throw error;
  return (
    <div className="flex flex-col items-center gap-4 rounded-2xl border border-red-200 bg-red-50 p-10 text-center dark:border-red-900/60 dark:bg-red-950/40">
      <p className="font-semibold text-red-800 dark:text-red-200">Failed to load analytics</p>
      <Button variant="secondary" onClick={() => void revalidator.revalidate()}>
        Try Again
      </Button>
    </div>
  );
}
