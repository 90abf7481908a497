import { reachOf } from "~/.server/access/scope";
import { analyticsReport, parseAnalyticsQuery } from "~/.server/analytics/report";
import { brandLabel } from "~/.server/brands/list-brands";
import { requireAction, requireAdministration } from "~/.server/http/authz";
import { csvResponse, parseQuery } from "~/.server/http/responses";
import { isoDay, toCsv } from "~/.server/platform/csv";
import { fullName } from "~/lib/names";
import type { Route } from "./+types/analytics.csv";

/** Cards listed with their lead counts in the file, at most. */
const LEAD_CARDS = 10_000;

/**
 * The analytics CSV, for the brand and period the page shows: the metrics, the ten most viewed
 * profiles, every card's number of leads, and the views and registrations of each day (or week).
 */
export async function loader({ request }: Route.LoaderArgs) {
  const viewer = requireAction(await requireAdministration(request), "read:analytics");
  const query = parseQuery(() => parseAnalyticsQuery(new URL(request.url)));
  if (query.brand !== null) requireAction(viewer, "read:analytics", { brandId: query.brand });
  const reach = reachOf(viewer);
  const [report, brand] = await Promise.all([
    analyticsReport(reach, query, { top: 10, leads: LEAD_CARDS }),
    query.brand === null ? "All brands" : brandLabel(query.brand),
  ]);
  const { tiles, sources } = report;
  const body = toCsv([
    ["Metric", "Value"],
    ["Brand", brand],
    ["From", query.from],
    ["To", query.to],
    ["Time zone", query.timeZone],
    ["Total Profiles", tiles.activeProfiles],
    ["Deactivated Cards", tiles.deactivatedProfiles],
    ["Active Brands", tiles.activeBrands],
    ["Total Views", tiles.views],
    ["Active Users", tiles.viewedProfiles],
    ["New Registrations", tiles.registrations],
    ["Views from QR codes", sources.qr],
    ["Views from shared links", sources.link],
    ["Views from the directory", sources.directory],
    [],
    ["Top Profiles"],
    ["Name", "Username", "Views", "Brand"],
    ...report.top.map((row) => [fullName(row), row.username, row.views, row.brandName ?? "No brand"]),
    [],
    ["Leads by Card"],
    ["Name", "Username", "Leads"],
    ...report.leads.top.map((row) => [fullName(row), row.username, row.leads]),
    [],
    [report.views.step === "week" ? "Week starting" : "Day", "Views", "New Registrations"],
    ...report.views.bars.map((bar, index) => [bar.start, bar.count, report.registrations.bars[index]?.count ?? 0]),
  ]);
  return csvResponse(body, `${isoDay()}-namecard-analytics.csv`);
}
