import { BarChart3, Eye, PowerOff, TrendingUp, UserPlus, Users } from "lucide-react";
import { useEffect } from "react";
import { Form, isRouteErrorResponse, Link, useLocation, useNavigate, useRevalidator } from "react-router";
import { reachOf } from "~/.server/access/scope";
import { analyticsReport, parseAnalyticsQuery } from "~/.server/analytics/report";
import { listBrandsWithUsage } from "~/.server/brands/list-brands";
import { requireAction } from "~/.server/http/authz";
import { parseQuery } from "~/.server/http/responses";
import { adminsSeeLeads } from "~/.server/leads/retention";
import { DownloadButton } from "~/components/download-button";
import { PageHeader } from "~/components/page-header";
import { RefreshButton } from "~/components/refresh-button";
import { Button } from "~/components/ui/button";
import { ANALYTICS_RANGE_LABELS, ANALYTICS_RANGES } from "~/lib/analytics";
import { cn } from "~/lib/cn";
import { brandPalette } from "~/lib/color";
import { fullName } from "~/lib/names";
import type { LiveHandle } from "~/lib/realtime";
import { NO_BRAND_COLOR } from "~/lib/settings";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/analytics";

/** Shows every card's view count: every view concerns it. */
export const handle: LiveHandle = { live: () => true };

export const meta: Route.MetaFunction = () => [{ title: "Analytics" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireAction(context.get(viewerContext), "read:analytics");
  const query = parseQuery(() => parseAnalyticsQuery(new URL(request.url)));
  // Another brand than theirs is not found for a brand administrator.
  if (query.brand !== null) requireAction(viewer, "read:analytics", { brandId: query.brand });
  const reach = reachOf(viewer);
  const [report, brands, readLeads] = await Promise.all([
    analyticsReport(reach, query),
    listBrandsWithUsage(reach),
    adminsSeeLeads(),
  ]);
  return { query, report, brands: brands.map(({ id, name }) => ({ id, name })), readLeads };
}

const SHORT_DATE = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
const LONG_DATE = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});
const day = (iso: string) => SHORT_DATE.format(new Date(`${iso}T00:00:00Z`));

/** The period as headings name it: "Last 30 Days", or the days chosen. */
function periodName(query: Route.ComponentProps["loaderData"]["query"]) {
  if (query.range !== "custom") return `Last ${query.range} Days`;
  return `${LONG_DATE.format(new Date(`${query.from}T00:00:00Z`))} – ${LONG_DATE.format(new Date(`${query.to}T00:00:00Z`))}`;
}

/**
 * The figures are counted in the viewer's time zone: a page opened without one
 * asks again with the browser's, once it runs.
 */
function useViewersTimeZone() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (params.get("tz") === zone || !zone) return;
    params.set("tz", zone);
    void navigate({ search: `?${params}` }, { replace: true, preventScrollReset: true });
  }, [location.search, navigate]);
}

export default function Analytics({ loaderData }: Route.ComponentProps) {
  const { query, report, brands, readLeads } = loaderData;
  const { tiles: figures, byBrand, top, sources, leads } = report;
  useViewersTimeZone();
  const location = useLocation();
  const period = periodName(query);
  const totalRegistrations = report.registrations.bars.reduce((sum, bar) => sum + bar.count, 0);
  const totalSourceViews = sources.qr + sources.link + sources.directory;
  const tiles = [
    { label: "Total Profiles", value: figures.activeProfiles, Icon: Users },
    { label: "Active Brands", value: figures.activeBrands, Icon: BarChart3 },
    { label: "Total Views", value: figures.views, Icon: Eye },
    { label: "Active Users", value: figures.viewedProfiles, Icon: TrendingUp },
    { label: "New Registrations", value: figures.registrations, Icon: UserPlus },
    { label: "Deactivated Cards", value: figures.deactivatedProfiles, Icon: PowerOff },
  ];
  const maxBrand = Math.max(1, ...byBrand.map((brand) => brand.count));
  const byWeek = report.views.step === "week";
  return (
    <div className="space-y-8">
      <PageHeader
        title="Analytics"
        description="Platform insights and user engagement metrics."
        actions={
          <>
            <RefreshButton />
            <DownloadButton
              href={`/admin/export/analytics.csv${location.search}`}
              label="Export CSV"
              done="Analytics data exported successfully!"
            />
          </>
        }
      />

      <Form
        method="get"
        role="search"
        aria-label="Brand and period"
        className="grid gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-[1fr_1fr_auto_auto_auto] lg:items-end dark:border-slate-800 dark:bg-slate-900"
      >
        <input type="hidden" name="tz" value={query.timeZone} />
        <FilterField label="Brand" htmlFor="analytics-brand">
          <select id="analytics-brand" name="brand" defaultValue={query.brand ?? ""} className={FIELD}>
            <option value="">{brands.length === 1 ? brands[0]?.name : "All brands"}</option>
            {brands.length > 1
              ? brands.map((brand) => (
                  <option key={brand.id} value={brand.id}>
                    {brand.name}
                  </option>
                ))
              : null}
          </select>
        </FilterField>
        <FilterField label="Period" htmlFor="analytics-range">
          <select id="analytics-range" name="range" defaultValue={query.range} className={FIELD}>
            {ANALYTICS_RANGES.map((range) => (
              <option key={range} value={range}>
                {ANALYTICS_RANGE_LABELS[range]}
              </option>
            ))}
          </select>
        </FilterField>
        <FilterField label="From" htmlFor="analytics-from">
          <input id="analytics-from" type="date" name="from" defaultValue={query.from} className={FIELD} />
        </FilterField>
        <FilterField label="To" htmlFor="analytics-to">
          <input id="analytics-to" type="date" name="to" defaultValue={query.to} className={FIELD} />
        </FilterField>
        <Button type="submit" variant="secondary">
          Show
        </Button>
        <p className="text-xs text-slate-500 sm:col-span-2 lg:col-span-5 dark:text-slate-400">
          {period}, days counted in {query.timeZone}. From and To apply to a custom range.
        </p>
      </Form>

      <dl className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-3">
        {tiles.map(({ label, value, Icon }) => (
          <div
            key={label}
            className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
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
                        className="size-2.5 shrink-0 rounded-full bg-(--dot) dark:bg-(--dot-dark)"
                        style={dotStyle(brand.color)}
                      />
                      {brand.name}
                    </span>
                    <span className="tabular-nums text-slate-600 dark:text-slate-400">{brand.count}</span>
                  </div>
                  <div className="h-2 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800" aria-hidden>
                    <div
                      className="h-full rounded-full bg-(--dot) dark:bg-(--dot-dark)"
                      style={{ width: `${(brand.count / maxBrand) * 100}%`, ...dotStyle(brand.color) }}
                    />
                  </div>
                </li>
              ))}
            </ul>
          )}
        </Panel>

        <Panel title={`Most Viewed Profiles (${period})`}>
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

      <Panel title={`Leads by Card (${period})`}>
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
        <Panel title={`New User Registrations (${period})`}>
          <BarChart
            label={`People who joined or claimed their card, per ${report.registrations.step}`}
            bars={report.registrations.bars.map((bar, index) => ({
              key: bar.start,
              label: report.registrations.step === "week" ? `Week of ${day(bar.start)}` : day(bar.start),
              short: report.registrations.bars.length <= 14 || index % 5 === 0 ? day(bar.start) : "",
              value: bar.count,
            }))}
            thin={report.registrations.bars.length > 14}
          />
        </Panel>
      ) : null}

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <Panel title={`Views per ${byWeek ? "Week" : "Day"} (${period})`} className="lg:col-span-2">
          <BarChart
            label={`Card views per ${byWeek ? "week" : "day"}, ${period.toLowerCase()}`}
            bars={report.views.bars.map((bar, index) => ({
              key: bar.start,
              label: byWeek ? `Week of ${day(bar.start)}` : day(bar.start),
              short: report.views.bars.length <= 14 || index % 5 === 0 ? day(bar.start) : "",
              value: bar.count,
            }))}
            thin={report.views.bars.length > 14}
          />
        </Panel>
        <Panel title={`Views by Source (${period})`}>
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

/** A brand's colour as a shape seen on the card in either theme (a near-black brand turns lighter in dark mode). */
function dotStyle(color: string | null) {
  const palette = brandPalette(color || NO_BRAND_COLOR, color || NO_BRAND_COLOR);
  return { "--dot": palette.light.dot, "--dot-dark": palette.dark.dot } as React.CSSProperties;
}

const FIELD =
  "block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm dark:border-slate-700 dark:bg-slate-950";

function FilterField({ label, htmlFor, children }: { label: string; htmlFor: string; children: React.ReactNode }) {
  return (
    <div>
      <label htmlFor={htmlFor} className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-300">
        {label}
      </label>
      {children}
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
