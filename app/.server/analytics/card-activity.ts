import { and, count, eq, gte, sql } from "drizzle-orm";
import { db, rowsOf } from "../platform/db/client";
import { cardSaves, leads, profileViews } from "../platform/db/schema";
import type { ViewSource } from "./views";

/** Days the owner's figures cover, today included. */
const ACTIVITY_DAYS = 30;

type ActivityDay = { day: string } & Record<ViewSource, number>;

export type CardActivity = {
  days: ActivityDay[];
  totals: Record<ViewSource | "views" | "contact" | "wallet" | "leads", number>;
};

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/**
 * What a card brought its owner over the last 30 days (UTC days): its views
 * per day by where they came from, contact files saved, wallet passes added
 * and leads; the numbers a salesperson shows their manager.
 */
export async function cardActivity(profileId: string, now = new Date()): Promise<CardActivity> {
  const first = new Date(`${dayOf(now)}T00:00:00Z`);
  first.setUTCDate(first.getUTCDate() - (ACTIVITY_DAYS - 1));
  const [viewRows, saveRows, [leadRow]] = await Promise.all([
    db.execute(sql`
      select to_char(${profileViews.createdAt} at time zone 'UTC', 'YYYY-MM-DD') as day, ${profileViews.source} as source,
        count(*)::int as n
      from ${profileViews}
      where ${profileViews.profileId} = ${profileId} and ${profileViews.createdAt} >= ${first.toISOString()}::timestamptz
      group by 1, 2`),
    db
      .select({ kind: cardSaves.kind, n: sql<number>`sum(${cardSaves.count})::int` })
      .from(cardSaves)
      .where(and(eq(cardSaves.profileId, profileId), gte(cardSaves.day, dayOf(first))))
      .groupBy(cardSaves.kind),
    db
      .select({ n: count() })
      .from(leads)
      .where(and(eq(leads.profileId, profileId), gte(leads.createdAt, first))),
  ]);
  const days: ActivityDay[] = Array.from({ length: ACTIVITY_DAYS }, (_, index) => {
    const day = new Date(first);
    day.setUTCDate(first.getUTCDate() + index);
    return { day: dayOf(day), link: 0, qr: 0, directory: 0 };
  });
  const byDay = new Map(days.map((day) => [day.day, day]));
  const totals = { link: 0, qr: 0, directory: 0, views: 0, contact: 0, wallet: 0, leads: leadRow?.n ?? 0 };
  for (const row of rowsOf(viewRows) as { day: string; source: ViewSource; n: number }[]) {
    const day = byDay.get(row.day);
    if (!day) continue;
    day[row.source] += row.n;
    totals[row.source] += row.n;
    totals.views += row.n;
  }
  for (const row of saveRows) totals[row.kind] = row.n;
  return { days, totals };
}
