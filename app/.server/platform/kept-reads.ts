import { currentListeningPeriod, onPublished, type RealtimeEvent, subscribe } from "./realtime";

/**
 * What pages read often and changes rarely, kept between requests: the
 * directory's totals (counting every match is the costly part of a page of a
 * large directory: 100,000 people take tens of milliseconds, on every
 * request), its pages of people, facets and field policies, and the site
 * settings every page reads. They change only when a card, a brand or the
 * settings do. On a Monday morning most people open the same first page: each
 * instance reads it from the database until it has it, then answers from
 * memory until a change.
 *
 * Everything kept is dropped on any event about a card, a brand or the
 * settings, whichever instance sent it, and a page that shows a card whose
 * views changed (this module listens itself, so whatever runs with realtime
 * started, the server or a test, never reads a kept answer a change made stale); a
 * value is kept only while this instance listens for those events without a
 * gap, and for at most TOTAL_TTL_MS, for changes made to the database by
 * hand. A value read while something changed is used once and not kept.
 * docs/decisions/035-both-cores-and-many-instances.md has the figures.
 */
const TOTAL_TTL_MS = 60_000;
const MAX_TOTALS = 2_000;
/** Pages of people are larger than counts (about 20 KB each): fewer are kept, the least recently used going first. */
const MAX_ANSWERS = 200;

type Kept = { value: unknown; period: number; expires: number };
const totals = new Map<string, Kept>();
const answers = new Map<string, Kept & { shows: ReadonlySet<string> }>();
/** Counts the changes, so that a value read while one happened is not kept. Views change pages only. */
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

function forgetKeptReads() {
  generation++;
  totals.clear();
  answers.clear();
}

/** Drops the kept pages that show this card (its view count changed). */
function forgetAnswersShowing(profileId: string) {
  viewGeneration++;
  for (const [key, answer] of answers) if (answer.shows.has(profileId)) answers.delete(key);
}

function onEvent(event: RealtimeEvent) {
  if (event.kind === "profile" || event.kind === "brand" || event.kind === "settings") forgetKeptReads();
  else if (event.kind === "view") forgetAnswersShowing(event.id);
}
// Events from every instance, and this instance's own as soon as they are sent.
subscribe(onEvent);
onPublished(onEvent);

/**
 * A page of the directory, kept as totals are: `key` names the question,
 * `read` answers it, and `shown` says which cards the answer shows.
 */
export async function keptAnswer<Value>(
  key: string,
  shown: (value: Value) => string[],
  read: () => Promise<Value>,
): Promise<Value> {
  const period = currentListeningPeriod();
  const kept = answers.get(key);
  if (kept && kept.period === period && kept.expires > Date.now()) {
    answers.delete(key);
    answers.set(key, kept);
    return kept.value as Value;
  }
  const before = [generation, viewGeneration].join();
  const value = await readOnce(`answer ${key}`, read);
  if (period !== null && before === [generation, viewGeneration].join() && currentListeningPeriod() === period) {
    answers.delete(key);
    if (answers.size >= MAX_ANSWERS) answers.delete(answers.keys().next().value!);
    answers.set(key, { value, period, expires: Date.now() + TOTAL_TTL_MS, shows: new Set(shown(value)) });
  }
  return value;
}

/** The total for `key`, from memory while it is valid, else from `count`. */
export function directoryTotal(key: string, count: () => Promise<number>): Promise<number> {
  return keptCount(`total ${key}`, count);
}

/**
 * Anything small (a total, the people per department, the field policies, the
 * site settings), kept as totals are: `key` names the question, `count`
 * answers it. The value is shared by every caller: treat it as read-only.
 */
export async function keptCount<Value>(key: string, count: () => Promise<Value>): Promise<Value> {
  const period = currentListeningPeriod();
  const kept = totals.get(key);
  if (kept && kept.period === period && kept.expires > Date.now()) return kept.value as Value;
  const before = generation;
  const value = await readOnce(`count ${key}`, count);
  if (period !== null && before === generation && currentListeningPeriod() === period) {
    if (totals.size >= MAX_TOTALS) totals.clear();
    totals.set(key, { value, period, expires: Date.now() + TOTAL_TTL_MS });
  }
  return value;
}
