import { currentListeningPeriod } from "../realtime";

/**
 * How many people match a directory search, kept between requests: counting
 * every match is the costly part of a page of a large directory (100,000
 * people take tens of milliseconds, on every request), while the answer
 * changes only when a card is created, edited, claimed or deleted.
 *
 * The server drops every total on any event about a card or a brand
 * (`forgetDirectoryTotals`, called from server/page-cache.ts); a total is kept
 * only while this instance listens for those events without a gap, and for at
 * most TOTAL_TTL_MS, for changes made to the database by hand. A count that
 * overlapped a change is used once and not kept.
 */
const TOTAL_TTL_MS = 60_000;
const MAX_TOTALS = 2_000;

type Kept = { value: unknown; period: number; expires: number };
const totals = new Map<string, Kept>();
let generation = 0;

export function forgetDirectoryTotals() {
  generation++;
  totals.clear();
}

/** The total for `key`, from memory while it is valid, else from `count`. */
export function directoryTotal(key: string, count: () => Promise<number>): Promise<number> {
  return keptCount(`total ${key}`, count);
}

/**
 * Any count over the directory (a total, the people per department), kept as
 * totals are: `key` names the question, `count` answers it.
 */
export async function keptCount<Value>(key: string, count: () => Promise<Value>): Promise<Value> {
  const period = currentListeningPeriod();
  const kept = totals.get(key);
  if (kept && kept.period === period && kept.expires > Date.now()) return kept.value as Value;
  const before = generation;
  const value = await count();
  if (period !== null && before === generation && currentListeningPeriod() === period) {
    if (totals.size >= MAX_TOTALS) totals.clear();
    totals.set(key, { value, period, expires: Date.now() + TOTAL_TTL_MS });
  }
  return value;
}
