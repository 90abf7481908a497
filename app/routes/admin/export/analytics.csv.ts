import { getOverviewStats, getTopProfiles, getViewsBySource } from "~/.server/analytics/stats";
import { requireAdmin, requirePermission } from "~/.server/authz";
import { csvResponse, isoDay, toCsv } from "~/.server/csv";
import type { Route } from "./+types/analytics.csv";

/** The analytics CSV: the metrics and the ten most viewed profiles. */
export async function loader({ request }: Route.LoaderArgs) {
  requirePermission(await requireAdmin(request), "read:analytics:any");
  const [stats, top, sources] = await Promise.all([getOverviewStats(), getTopProfiles(10), getViewsBySource()]);
  const body = toCsv([
    ["Metric", "Value"],
    ["Total Profiles", stats.totalProfiles],
    ["Active Brands", stats.activeBrands],
    ["Total Views", stats.totalViews],
    ["Active Users", stats.activeProfiles],
    ["Views from QR codes", sources.qr],
    ["Views from shared links", sources.link],
    ["Views from the directory", sources.directory],
    [],
    ["Top Profiles"],
    ["Name", "Username", "Views", "Brand"],
    ...top.map((row) => [`${row.firstName} ${row.lastName}`, row.username, row.views, row.brandName ?? "No brand"]),
  ]);
  return csvResponse(body, `${isoDay()}-namecard-analytics.csv`);
}
