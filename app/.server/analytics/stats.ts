import { and, desc, eq, sql } from "drizzle-orm";
import type { Reach } from "../access/scope";
import { db, rowsOf } from "../platform/db/client";
import { brands, invitations, profiles, profileViews, users } from "../platform/db/schema";

/**
 * A member's rank is the 1-based position of the profile among profiles with
 * views, by views descending; 0 when it has none. Ties share a rank.
 */
export async function getProfileRank(profileId: string): Promise<number> {
  const [row] = await db
    .select({
      rank: sql<number>`case when ${profiles.viewCount} > 0 then (
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

/** Active brands with how many profiles each has, largest first ('Profiles by Brand'). */
export async function getProfilesByBrand({ brands: brandRows }: Reach) {
  return db
    .select({
      id: brands.id,
      name: brands.name,
      color: brands.primaryColor,
      count: sql<number>`count(${profiles.id})::int`,
    })
    .from(brands)
    .leftJoin(profiles, eq(profiles.companyBrandId, brands.id))
    .where(and(eq(brands.active, true), brandRows))
    .groupBy(brands.id)
    .orderBy(desc(sql`count(${profiles.id})`), brands.name);
}

/** The most viewed profiles (top 8 on screen, 10 in the CSV). */
export async function getTopProfiles({ cards }: Reach, limit: number) {
  return db
    .select({
      id: profiles.id,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      username: profiles.username,
      views: profiles.viewCount,
      brandName: brands.name,
      brandColor: brands.primaryColor,
    })
    .from(profiles)
    .leftJoin(brands, eq(brands.id, profiles.companyBrandId))
    .where(and(sql`${profiles.viewCount} > 0`, cards))
    .orderBy(desc(profiles.viewCount), profiles.firstName, profiles.lastName)
    .limit(limit);
}

/**
 * New profiles of the last 30 days, by week starting on Sunday. Weeks
 * without registrations are included, so the chart has no gaps.
 */
export async function getRegistrationsByWeek({ cards }: Reach, now = new Date()) {
  const result = await db.execute(sql`
    with bounds as (
      select (${now.toISOString()}::timestamptz at time zone 'UTC') as now_utc
    ), weeks as (
      select generate_series(
        date_trunc('week', (select now_utc from bounds) - interval '30 days' + interval '1 day') - interval '1 day',
        date_trunc('week', (select now_utc from bounds) + interval '1 day') - interval '1 day',
        interval '7 days'
      ) as week_start
    )
    select to_char(weeks.week_start, 'YYYY-MM-DD') as week, count(p.id)::int as count
    from weeks
    left join ${profiles} p
      on (p.created_at at time zone 'UTC') >= weeks.week_start
     and (p.created_at at time zone 'UTC') < weeks.week_start + interval '7 days'
     and (p.created_at at time zone 'UTC') >= (select now_utc from bounds) - interval '30 days'
     and p.id in (select ${profiles.id} from ${profiles} where ${cards})
    group by weeks.week_start
    order by weeks.week_start`);
  return rowsOf(result) as { week: string; count: number }[];
}

/** Real views per day for the last 30 days, from profile_views (docs/decisions/006-realtime-and-views.md). */
export async function getViewsByDay({ cards }: Reach, now = new Date()) {
  const result = await db.execute(sql`
    with days as (
      select generate_series(
        date_trunc('day', ${now.toISOString()}::timestamptz at time zone 'UTC') - interval '29 days',
        date_trunc('day', ${now.toISOString()}::timestamptz at time zone 'UTC'),
        interval '1 day'
      ) as day
    )
    select to_char(days.day, 'YYYY-MM-DD') as day, count(v.id)::int as count
    from days
    left join ${profileViews} v
      on (v.created_at at time zone 'UTC') >= days.day and (v.created_at at time zone 'UTC') < days.day + interval '1 day'
     and v.profile_id in (select ${profiles.id} from ${profiles} where ${cards})
    group by days.day
    order by days.day`);
  return rowsOf(result) as { day: string; count: number }[];
}

/** Views by where they came from: QR scans, shared links, the directory. */
export async function getViewsBySource({ cards }: Reach) {
  const rows = await db
    .select({ source: profileViews.source, count: sql<number>`count(*)::int` })
    .from(profileViews)
    .innerJoin(profiles, eq(profiles.id, profileViews.profileId))
    .where(cards)
    .groupBy(profileViews.source);
  const counts = { qr: 0, link: 0, directory: 0 };
  for (const row of rows) counts[row.source] = row.count;
  return counts;
}
