import { asc } from "drizzle-orm";
import { brandValues, type CardFieldKey } from "~/lib/card-fields";
import type { DashboardData, DashboardTab } from "~/lib/dashboard";
import { mediaUrl } from "~/lib/media";
import { reachOf } from "../access/scope";
import { templateFrom } from "../brands/template";
import { invitationSummary } from "../invitations/summary";
import type { Actor } from "../platform/actor";
import { db } from "../platform/db/client";
import { brands } from "../platform/db/schema";
import { listProfilesForAdmin, parseAdminProfileQuery } from "../profiles/admin-list";
import { gettingStarted } from "../settings/getting-started";
import { getOverviewStats, getRecentMembers } from "./stats";

/**
 * Everything the administrator's dashboard shows, for `/`, /admin/dashboard and /admin/profiles: the
 * whole site to an administrator, their brands to a brand administrator.
 */
export async function loadDashboard(actor: Actor, url: URL, forcedTab?: DashboardTab): Promise<DashboardData> {
  const tab: DashboardTab = forcedTab ?? (url.searchParams.get("tab") === "profiles" ? "profiles" : "overview");
  const query = parseAdminProfileQuery(url);
  // Each tab reads only what it shows; the tab label's count is the overview's total.
  const overview = tab === "overview";
  const reach = reachOf(actor);
  const [stats, recent, management, brandList, invitations, setup] = await Promise.all([
    getOverviewStats(reach),
    overview ? getRecentMembers(reach) : [],
    overview ? null : listProfilesForAdmin(reach, query),
    overview
      ? []
      : db
          .select({ id: brands.id, name: brands.name, active: brands.active, template: brands.template })
          .from(brands)
          .where(reach.brands)
          .orderBy(asc(brands.name)),
    overview ? null : invitationSummary(reach, actor.role === "admin"),
    overview ? gettingStarted(actor) : null,
  ]);
  return {
    tab,
    gettingStarted: setup,
    stats,
    recent: recent.map(({ profilePhoto, createdAt, ...member }) => ({
      ...member,
      photoUrl: mediaUrl(profilePhoto),
      createdAt: createdAt.toISOString(),
    })),
    management: management &&
      invitations && {
        ...management,
        query,
        invitations,
        siteWide: actor.role === "admin",
        rows: management.rows.map(({ profilePhoto, createdAt, invitedAt, updatedAt, ...row }) => ({
          ...row,
          profilePhoto,
          photoUrl: mediaUrl(profilePhoto),
          createdAt: createdAt.toISOString(),
          version: updatedAt.toISOString(),
          invitedAt: invitedAt ? invitedAt.toISOString() : null,
        })),
      },
    // The fields each brand's template sets on every card of it: the edit form shows them as the brand's.
    brands: brandList.map(({ template, ...brand }) => ({
      ...brand,
      setFields: Object.keys(brandValues(templateFrom(template))) as CardFieldKey[],
    })),
  };
}
