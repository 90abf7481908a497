import { desc, eq, sql } from "drizzle-orm";
import type { Reach } from "../access/scope";
import { db } from "../platform/db/client";
import { brands, invitations, profiles, users } from "../platform/db/schema";

/** A rank says something once this many cards have been viewed: among two, "#2" only says who came last. */
const RANKED_AFTER = 5;

/**
 * A member's rank is the 1-based position of the profile among profiles with
 * views, by views descending; 0 when it has none, or while fewer than
 * RANKED_AFTER cards have any (the home page then shows no rank). Ties share a rank.
 */
export async function getProfileRank(profileId: string): Promise<number> {
  const [row] = await db
    .select({
      rank: sql<number>`case when ${profiles.viewCount} > 0
        and (select count(*) from ${profiles} as viewed where viewed.view_count > 0) >= ${RANKED_AFTER}::int then (
        select count(*)::int + 1 from ${profiles} as other where other.view_count > ${profiles}.view_count
      ) else 0 end`,
    })
    .from(profiles)
    .where(eq(profiles.id, profileId));
  return row?.rank ?? 0;
}

/**
 * The overview figures, in SQL over the cards and brands within reach, so no page needs every row
 * to count them: an administrator's figures are the whole site's, a brand administrator's their brands'.
 */
export async function getOverviewStats({ cards, brands: brandRows }: Reach) {
  const [row] = await db
    .select({
      totalProfiles: sql<number>`count(*)::int`,
      claimedProfiles: sql<number>`count(${profiles.userId})::int`,
      totalViews: sql<number>`coalesce(sum(${profiles.viewCount}), 0)::int`,
      activeProfiles: sql<number>`count(*) filter (where ${profiles.viewCount} > 0)::int`,
      newThisWeek: sql<number>`count(*) filter (where ${profiles.createdAt} >= now() - interval '7 days')::int`,
      activeBrands: sql<number>`(select count(*)::int from ${brands} where ${brands.active} and ${brandRows})`,
      // The rollout: active cards invited (or claimed without), claimed, and whose owner signed in lately.
      invitedProfiles: sql<number>`count(*) filter (where ${profiles.deactivatedAt} is null and (${profiles.userId} is not null or exists (select 1 from ${invitations} i where i.profile_id = ${profiles.id})))::int`,
      waitingProfiles: sql<number>`count(*) filter (where ${profiles.deactivatedAt} is null and ${profiles.userId} is null and exists (select 1 from ${invitations} i where i.profile_id = ${profiles.id} and i.stopped_at is null))::int`,
      activeMembers: sql<number>`count(*) filter (where ${profiles.deactivatedAt} is null and exists (select 1 from ${users} u where u.id = ${profiles.userId} and u.last_sign_in_at >= now() - interval '30 days'))::int`,
    })
    .from(profiles)
    .where(cards);
  const stats = row ?? {
    totalProfiles: 0,
    claimedProfiles: 0,
    totalViews: 0,
    activeProfiles: 0,
    newThisWeek: 0,
    activeBrands: 0,
    invitedProfiles: 0,
    waitingProfiles: 0,
    activeMembers: 0,
  };
  const olderProfiles = stats.totalProfiles - stats.newThisWeek;
  return {
    ...stats,
    unclaimedProfiles: stats.totalProfiles - stats.claimedProfiles,
    /** Claimed / all × 100, 0 when there are none. */
    adoptionRate: stats.totalProfiles === 0 ? 0 : (stats.claimedProfiles / stats.totalProfiles) * 100,
    /** Created in the last 7 days / older × 100; 0 when nothing is older. */
    weeklyGrowth: olderProfiles === 0 ? 0 : (stats.newThisWeek / olderProfiles) * 100,
  };
}

/** The 5 newest profiles, for "Recent Members". */
export async function getRecentMembers({ cards }: Reach, limit = 5) {
  return db
    .select({
      id: profiles.id,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      username: profiles.username,
      email: profiles.email,
      profilePhoto: profiles.profilePhoto,
      claimed: sql<boolean>`${profiles.userId} is not null`,
      createdAt: profiles.createdAt,
      brandName: brands.name,
      brandColor: brands.primaryColor,
    })
    .from(profiles)
    .leftJoin(brands, eq(brands.id, profiles.companyBrandId))
    .where(cards)
    .orderBy(desc(profiles.createdAt), desc(profiles.id))
    .limit(limit);
}
