import { eq, sql } from "drizzle-orm";
import { db } from "./db/client";
import { brands, profiles } from "./db/schema";

/**
 * Spec §9: rank is the 1-based position of the profile among profiles with
 * views, by views descending; 0 when it has none. Ties share a rank.
 */
export async function getProfileRank(profileId: string): Promise<number> {
  const [row] = await db
    .select({
      rank: sql<number>`case when ${profiles.viewCount} > 0 then (
        select count(*)::int + 1 from ${profiles} as other where other.view_count > ${profiles.viewCount}
      ) else 0 end`,
    })
    .from(profiles)
    .where(eq(profiles.id, profileId));
  return row?.rank ?? 0;
}

/** The Overview cards (spec §2 Admin dashboard, §9 formulas), in one query. */
export async function getOverviewStats() {
  const [row] = await db
    .select({
      totalProfiles: sql<number>`count(*)::int`,
      claimedProfiles: sql<number>`count(${profiles.userId})::int`,
      totalViews: sql<number>`coalesce(sum(${profiles.viewCount}), 0)::int`,
      activeBrands: sql<number>`(select count(*)::int from ${brands} where ${brands.active})`,
    })
    .from(profiles);
  const stats = row ?? { totalProfiles: 0, claimedProfiles: 0, totalViews: 0, activeBrands: 0 };
  return {
    ...stats,
    unclaimedProfiles: stats.totalProfiles - stats.claimedProfiles,
    adoptionRate: stats.totalProfiles === 0 ? 0 : (stats.claimedProfiles / stats.totalProfiles) * 100,
  };
}
