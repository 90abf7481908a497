import { reachOf } from "~/.server/access/scope";
import { getOverviewStats } from "~/.server/analytics/stats";
import { requireAction, requireAdministration } from "~/.server/http/authz";
import { csvResponse } from "~/.server/http/responses";
import { isoDay, toCsv } from "~/.server/platform/csv";
import { allProfilesForExport } from "~/.server/profiles/admin-list";
import { fullName } from "~/lib/names";
import type { Route } from "./+types/dashboard.csv";

/** The dashboard CSV: a metrics block, then one row per profile. */
export async function loader({ request }: Route.LoaderArgs) {
  const reach = reachOf(requireAction(await requireAdministration(request), "read:analytics"));
  const [stats, rows] = await Promise.all([getOverviewStats(reach), allProfilesForExport(reach)]);
  const percent = (value: number) => `${value.toFixed(1)}%`;
  const body = toCsv([
    ["Metric", "Value"],
    ["Total Profiles", stats.totalProfiles],
    ["Claimed", stats.claimedProfiles],
    ["Unclaimed", stats.unclaimedProfiles],
    ["Total Brands", stats.activeBrands],
    ["Total Views", stats.totalViews],
    ["Adoption Rate", percent(stats.adoptionRate)],
    ["Weekly Growth", percent(stats.weeklyGrowth)],
    [],
    ["Name", "Email", "Username", "Brand", "Status", "Views", "Created"],
    ...rows.map((row) => [
      fullName(row),
      row.email,
      row.username,
      row.brandName ?? "No brand",
      row.claimed ? "Claimed" : "Unclaimed",
      row.viewCount,
      isoDay(row.createdAt),
    ]),
  ]);
  return csvResponse(body, `namecard-dashboard-${isoDay()}.csv`);
}
