import { asc } from "drizzle-orm";
import { mediaUrl } from "~/lib/media";
import { listProfilesForAdmin, parseAdminProfileQuery } from "./admin-profiles";
import { db } from "./db/client";
import { brands } from "./db/schema";
import { getOverviewStats, getRecentMembers } from "./stats";

export type DashboardTab = "overview" | "profiles";

/** Everything the administrator's dashboard shows, for `/`, /admin/dashboard and /admin/profiles. */
export async function loadDashboard(request: Request, forcedTab?: DashboardTab) {
  const url = new URL(request.url);
  const tab: DashboardTab = forcedTab ?? (url.searchParams.get("tab") === "profiles" ? "profiles" : "overview");
  const query = parseAdminProfileQuery(url);
  // Each tab reads only what it shows; the tab label's count is the overview's total.
  const overview = tab === "overview";
  const [stats, recent, management, brandList] = await Promise.all([
    getOverviewStats(),
    overview ? getRecentMembers() : [],
    overview ? null : listProfilesForAdmin(query),
    overview
      ? []
      : db.select({ id: brands.id, name: brands.name, active: brands.active }).from(brands).orderBy(asc(brands.name)),
  ]);
  return {
    tab,
    stats,
    recent: recent.map(({ profilePhoto, createdAt, ...member }) => ({
      ...member,
      photoUrl: mediaUrl(profilePhoto),
      createdAt: createdAt.toISOString(),
    })),
    management: management && {
      ...management,
      query,
      rows: management.rows.map(({ profilePhoto, createdAt, ...row }) => ({
        ...row,
        profilePhoto,
        photoUrl: mediaUrl(profilePhoto),
        createdAt: createdAt.toISOString(),
      })),
    },
    brands: brandList,
  };
}

export type DashboardData = Awaited<ReturnType<typeof loadDashboard>>;
