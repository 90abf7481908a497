import { reachOf } from "~/.server/access/scope";
import { getOverviewStats, getTopProfiles, getViewsBySource } from "~/.server/analytics/stats";
import { requireAction, requireAdministration } from "~/.server/http/authz";
import { csvResponse } from "~/.server/http/responses";
import { leadsByCard } from "~/.server/leads/owner";
import { isoDay, toCsv } from "~/.server/platform/csv";
import { fullName } from "~/lib/names";
import type { Route } from "./+types/analytics.csv";

/** Cards listed with their lead counts in the file, at most. */
const LEAD_CARDS = 10_000;

/** The analytics CSV: the metrics, the ten most viewed profiles, and every card's number of leads. */
export async function loader({ request }: Route.LoaderArgs) {
  const reach = reachOf(requireAction(await requireAdministration(request), "read:analytics"));
  const [stats, top, sources, leads] = await Promise.all([
    getOverviewStats(reach),
    getTopProfiles(reach, 10),
    getViewsBySource(reach),
    leadsByCard(reach, LEAD_CARDS),
  ]);
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
    ...top.map((row) => [fullName(row), row.username, row.views, row.brandName ?? "No brand"]),
    [],
    ["Leads by Card"],
    ["Name", "Username", "Leads"],
    ...leads.top.map((row) => [fullName(row), row.username, row.leads]),
  ]);
  return csvResponse(body, `${isoDay()}-namecard-analytics.csv`);
}
