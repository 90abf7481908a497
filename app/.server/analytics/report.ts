import { and, count, desc, eq, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { ANALYTICS_RANGES, type AnalyticsRange } from "~/lib/analytics";
import type { Reach } from "../access/scope";
import { db, rowsOf } from "../platform/db/client";
import { brands, leads, profiles, profileViews } from "../platform/db/schema";
import { ValidationError } from "../platform/errors";

/**
 * The analytics page and its CSV (docs/decisions/044-brand-administrators.md):
 * every figure over the cards within reach, narrowed to one brand when asked,
 * and every count of events (views, registrations, leads) over a window of
 * days in the viewer's time zone.
 */

export type AnalyticsQuery = {
  /** One brand within reach, or all of them. */
  brand: number | null;
  range: AnalyticsRange;
  /** The window's first and last day (YYYY-MM-DD, inclusive) in `timeZone`. */
  from: string;
  to: string;
  timeZone: string;
};

/** A custom window is a year at most: its chart has a bar a week. */
const MAX_DAYS = 366;
/** Windows longer than this are charted by week. */
const DAILY_UP_TO = 92;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function isDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** A zone both the browser and the database know by name; anything else is UTC. */
function knownZone(value: string | null): string {
  if (!value || !/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(value)) return "UTC";
  try {
    return new Intl.DateTimeFormat("en", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return "UTC";
  }
}

/** Today's date where the viewer is. */
function today(timeZone: string, now: Date): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

/** Reads the page's filters; a malformed one throws a ValidationError (a 400 naming it). */
export function parseAnalyticsQuery(url: URL, now = new Date()): AnalyticsQuery {
  const params = url.searchParams;
  const errors: Record<string, string[]> = {};
  const timeZone = knownZone(params.get("tz"));
  const brandText = params.get("brand") ?? "";
  if (brandText !== "" && !/^[1-9][0-9]{0,9}$/.test(brandText)) errors.brand = ["Choose a brand from the list."];
  const rangeText = params.get("range") ?? "30";
  const range = (ANALYTICS_RANGES as readonly string[]).includes(rangeText) ? (rangeText as AnalyticsRange) : null;
  if (!range) errors.range = ["Choose a period from the list."];
  let to = today(timeZone, now);
  let from = addDays(to, -29);
  if (range === "custom") {
    const fromText = params.get("from") ?? "";
    const toText = params.get("to") ?? "";
    if (!isDay(fromText)) errors.from = ["Use a date such as 2026-01-31 for “From”."];
    if (!isDay(toText)) errors.to = ["Use a date such as 2026-01-31 for “To”."];
    if (isDay(fromText) && isDay(toText)) {
      if (fromText > toText) errors.to = ["“To” is before “From”: choose a later day."];
      else if (daysBetween(fromText, toText) > MAX_DAYS) errors.to = [`Choose ${MAX_DAYS} days at most.`];
      from = fromText;
      to = toText;
    }
  } else if (range) {
    from = addDays(to, -(Number(range) - 1));
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return { brand: brandText ? Number(brandText) : null, range: range ?? "30", from, to, timeZone };
}

/** The window's bounds as moments: the first day's start and the day after the last, where the viewer is. */
function bounds({ from, to, timeZone }: AnalyticsQuery) {
  return {
    start: sql`(${from}::date::timestamp at time zone ${timeZone})`,
    end: sql`((${to}::date + 1)::timestamp at time zone ${timeZone})`,
  };
}

function within(column: SQL | AnyPgColumn, query: AnalyticsQuery): SQL {
  const { start, end } = bounds(query);
  return sql`${column} >= ${start} and ${column} < ${end}`;
}

/** The cards the report counts: those within reach, of one brand when asked. */
function reportCards(reach: Reach, query: AnalyticsQuery): SQL {
  return query.brand === null ? reach.cards : and(reach.cards, eq(profiles.companyBrandId, query.brand))!;
}

/** Events a bar at a time: a day each, or a week each for a long window (the last one ends with the window). */
async function series(query: AnalyticsQuery, events: (start: SQL, end: SQL) => SQL) {
  const step = daysBetween(query.from, query.to) > DAILY_UP_TO ? 7 : 1;
  const { timeZone, to } = query;
  const result = await db.execute(sql`
    with buckets as (
      select day::date as day from generate_series(${query.from}::date, ${to}::date, make_interval(days => ${step}::int)) as day
    )
    select to_char(b.day, 'YYYY-MM-DD') as start, (${events(
      sql`(b.day::timestamp at time zone ${timeZone})`,
      sql`(least(b.day + ${step}::int, ${to}::date + 1)::timestamp at time zone ${timeZone})`,
    )})::int as count
    from buckets b
    order by b.day`);
  return {
    step: step === 7 ? ("week" as const) : ("day" as const),
    bars: rowsOf(result) as { start: string; count: number }[],
  };
}

/** Everything the analytics page shows, for the cards within reach and the query's brand and window. */
export async function analyticsReport(reach: Reach, query: AnalyticsQuery, limits = { top: 8, leads: 8 }) {
  const cards = reportCards(reach, query);
  const inReport = sql`${profileViews.profileId} in (select ${profiles.id} from ${profiles} where ${cards})`;
  const [tiles] = await db
    .select({
      activeProfiles: sql<number>`count(*) filter (where ${profiles.deactivatedAt} is null)::int`,
      deactivatedProfiles: sql<number>`count(*) filter (where ${profiles.deactivatedAt} is not null)::int`,
      // People who joined or claimed their card in the window: not the cards an import or a provider made.
      registrations: sql<number>`count(*) filter (where ${within(profiles.claimedAt, query)})::int`,
    })
    .from(profiles)
    .where(cards);
  const [views] = await db
    .select({
      views: sql<number>`count(*)::int`,
      viewedProfiles: sql<number>`count(distinct ${profileViews.profileId})::int`,
    })
    .from(profileViews)
    .where(and(inReport, within(profileViews.createdAt, query)));
  const brandRows = query.brand === null ? reach.brands : and(reach.brands, eq(brands.id, query.brand))!;
  const byBrand = await db
    .select({
      id: brands.id,
      name: brands.name,
      color: brands.primaryColor,
      count: sql<number>`count(${profiles.id})::int`,
    })
    .from(brands)
    .leftJoin(profiles, and(eq(profiles.companyBrandId, brands.id), isNull(profiles.deactivatedAt)))
    .where(and(eq(brands.active, true), brandRows))
    .groupBy(brands.id)
    .orderBy(desc(sql`count(${profiles.id})`), brands.name);
  const top = await db
    .select({
      id: profiles.id,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      username: profiles.username,
      brandName: brands.name,
      views: sql<number>`count(${profileViews.id})::int`,
    })
    .from(profileViews)
    .innerJoin(profiles, eq(profiles.id, profileViews.profileId))
    .leftJoin(brands, eq(brands.id, profiles.companyBrandId))
    .where(and(cards, within(profileViews.createdAt, query)))
    .groupBy(profiles.id, brands.name)
    .orderBy(desc(sql`count(${profileViews.id})`), profiles.firstName, profiles.lastName)
    .limit(limits.top);
  const sourceRows = await db
    .select({ source: profileViews.source, count: sql<number>`count(*)::int` })
    .from(profileViews)
    .where(and(inReport, within(profileViews.createdAt, query)))
    .groupBy(profileViews.source);
  const sources = { qr: 0, link: 0, directory: 0 };
  for (const row of sourceRows) sources[row.source] = row.count;
  const leadRows = await db
    .select({
      username: profiles.username,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      leads: count(),
    })
    .from(leads)
    .innerJoin(profiles, eq(profiles.id, leads.profileId))
    .where(and(cards, within(leads.createdAt, query)))
    .groupBy(profiles.id)
    .orderBy(desc(count()), profiles.lastName, profiles.firstName)
    .limit(limits.leads);
  const [leadTotal] = await db
    .select({ n: count() })
    .from(leads)
    .innerJoin(profiles, eq(profiles.id, leads.profileId))
    .where(and(cards, within(leads.createdAt, query)));
  const viewsOver = await series(
    query,
    (start, end) =>
      sql`(select count(*) from ${profileViews} v where v.created_at >= ${start} and v.created_at < ${end}
        and v.profile_id in (select ${profiles.id} from ${profiles} where ${cards}))`,
  );
  const registrationsOver = await series(
    query,
    (start, end) =>
      sql`(select count(*) from ${profiles} where ${cards} and ${isNotNull(profiles.claimedAt)}
        and ${profiles.claimedAt} >= ${start} and ${profiles.claimedAt} < ${end})`,
  );
  return {
    tiles: {
      activeProfiles: tiles?.activeProfiles ?? 0,
      deactivatedProfiles: tiles?.deactivatedProfiles ?? 0,
      activeBrands: byBrand.length,
      views: views?.views ?? 0,
      viewedProfiles: views?.viewedProfiles ?? 0,
      registrations: tiles?.registrations ?? 0,
    },
    byBrand,
    top,
    sources,
    leads: { top: leadRows, total: leadTotal?.n ?? 0 },
    views: viewsOver,
    registrations: registrationsOver,
  };
}
