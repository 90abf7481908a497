import { currentListeningPeriod, onPublished, type RealtimeEvent, subscribe } from "./realtime";

/**
 * The read cache: what pages read often and changes rarely, cached between
 * requests. The directory's totals (counting every match is the costly part
 * of a page of a large directory, on every request), its pages of people,
 * facets and field policies, and the site settings every page reads. They
 * change only when a card, a brand or the settings do. On a Monday morning
 * most people open the same first page: each instance reads it from the
 * database until it has it, then serves it from memory until a change.
 *
 * The whole cache is cleared on any event about a card, a brand or the
 * settings, whichever instance sent it, and a page that shows a card whose
 * views changed (this module listens itself, so whatever runs with realtime
 * started, the server or a test, never reads a cached result a change made stale); a
 * value is cached only while this instance listens for those events without a
 * gap, and for at most TOTAL_TTL_MS, for changes made to the database by
 * hand. A value read while something changed is used once and not cached.
 * docs/decisions/035-both-cores-and-many-instances.md holds the limits and
 * bench/README.md the measurements behind them.
 */
const TOTAL_TTL_MS = 60_000;
const MAX_TOTALS = 2_000;
/** Pages of people are larger than counts: fewer are cached, the least recently used going first (decision 035 has their size). */
const MAX_RESULTS = 200;

type Cached = { value: unknown; period: number; expires: number };
const totals = new Map<string, Cached>();
const results = new Map<string, Cached & { shows: ReadonlySet<string> }>();
/** Counts the changes, so that a value read while one happened is not cached. Views change pages only. */
let generation = 0;
let viewGeneration = 0;
/**
 * Reads under way, by key: a request that asks for a value being read, with nothing changed
 * since the read began, waits for that read instead of starting its own. A first page
 * opened by 50 people at once is read once, not 50 times.
 */
const reading = new Map<string, { since: string; value: Promise<unknown> }>();

/** Reads `key` once for every caller that asks while nothing has changed since the read began. */
function readOnce<Value>(key: string, read: () => Promise<Value>): Promise<Value> {
  // A gap in listening may hide a change: a read begun in another period is not shared.
  const since = [generation, viewGeneration, currentListeningPeriod()].join();
  const under = reading.get(key);
  if (under && under.since === since) return under.value as Promise<Value>;
  const value = read().finally(() => {
    if (reading.get(key)?.value === value) reading.delete(key);
  });
  reading.set(key, { since, value });
  return value;
}

function clearReadCache() {
  generation++;
  totals.clear();
  results.clear();
}

/** Drops the cached pages that show this card (its view count changed). */
function clearResultsShowing(profileId: string) {
  viewGeneration++;
  for (const [key, result] of results) if (result.shows.has(profileId)) results.delete(key);
}

function onEvent(event: RealtimeEvent) {
  if (event.kind === "profile" || event.kind === "brand" || event.kind === "settings") clearReadCache();
  else if (event.kind === "view") clearResultsShowing(event.id);
}
// Events from every instance, and this instance's own as soon as they are sent.
subscribe(onEvent);
onPublished(onEvent);

/**
 * A page of the directory, cached as totals are: `key` names the question,
 * `read` answers it, and `shown` says which cards the result shows.
 */
export async function cachedResult<Value>(
  key: string,
  shown: (value: Value) => string[],
  read: () => Promise<Value>,
): Promise<Value> {
  const period = currentListeningPeriod();
  const cached = results.get(key);
  if (cached && cached.period === period && cached.expires > Date.now()) {
    results.delete(key);
    results.set(key, cached);
    return cached.value as Value;
  }
  const before = [generation, viewGeneration].join();
  const value = await readOnce(`result ${key}`, read);
  if (period !== null && before === [generation, viewGeneration].join() && currentListeningPeriod() === period) {
    results.delete(key);
    if (results.size >= MAX_RESULTS) results.delete(results.keys().next().value!);
    results.set(key, { value, period, expires: Date.now() + TOTAL_TTL_MS, shows: new Set(shown(value)) });
  }
  return value;
}

/** The total for `key`, from memory while it is valid, else from `count`. */
export function directoryTotal(key: string, count: () => Promise<number>): Promise<number> {
  return cachedValue(`total ${key}`, count);
}

/**
 * Anything small (a total, the people per department, the field policies, the
 * site settings), cached as totals are: `key` names the question, `count`
 * answers it. The value is shared by every caller: treat it as read-only.
 */
export async function cachedValue<Value>(key: string, count: () => Promise<Value>): Promise<Value> {
  const period = currentListeningPeriod();
  const cached = totals.get(key);
  if (cached && cached.period === period && cached.expires > Date.now()) return cached.value as Value;
  const before = generation;
  const value = await readOnce(`count ${key}`, count);
  if (period !== null && before === generation && currentListeningPeriod() === period) {
    if (totals.size >= MAX_TOTALS) totals.clear();
    totals.set(key, { value, period, expires: Date.now() + TOTAL_TTL_MS });
  }
  return value;
}
