import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import { type DatabaseHandle, db, type Queryable } from "./db/client";

/**
 * Changes that others should see travel through PostgreSQL
 * (docs/decisions/006-realtime-and-views.md): writers NOTIFY, every app instance LISTENs and fans the events
 * out to its browsers over Server-Sent Events. Events carry kinds and ids only,
 * never the changed fields, so they reveal nothing a page would not.
 */
const EVENTS_CHANNEL = "namecard_events";

export type RealtimeEvent = {
  /** What changed, for browsers; or, for the servers only, a session or an account's sessions that ended. */
  kind: "profile" | "brand" | "view" | "settings" | "session-ended" | "user-sessions-ended";
  id: string;
};

/** The kinds browsers receive; the others are between servers. */
export const BROWSER_EVENT_KINDS: ReadonlySet<RealtimeEvent["kind"]> = new Set([
  "profile",
  "brand",
  "view",
  "settings",
]);

type Listener = (event: RealtimeEvent) => void;
const listeners = new Set<Listener>();

const publishedHooks = new Set<Listener>();

/**
 * Sends an event to every instance; inside a transaction it goes out on commit.
 * Outside one (the write is committed), this instance's `onPublished` hooks
 * run before it returns, so that what answers next here already knows.
 */
export async function publish(event: RealtimeEvent, tx: Queryable = db) {
  await tx.execute(sql`select pg_notify(${EVENTS_CHANNEL}, ${JSON.stringify(event)})`);
  if (tx === db) for (const hook of publishedHooks) hook(event);
}

/** `publish` for many events in one statement (a bulk import's batch). */
export async function publishAll(events: RealtimeEvent[], tx: Queryable = db) {
  if (events.length === 0) return;
  const payloads = JSON.stringify(events.map((event) => JSON.stringify(event)));
  await tx.execute(
    sql`select pg_notify(${EVENTS_CHANNEL}, payload) from jsonb_array_elements_text(${payloads}::jsonb) as payload`,
  );
  if (tx === db) for (const event of events) for (const hook of publishedHooks) hook(event);
}

/**
 * Runs this instance's `onPublished` hooks for events a transaction sent
 * (with `publish(event, tx)`), once it has committed: what answers next here
 * then already knows, as after a `publish` outside a transaction.
 */
export function announceCommitted(events: readonly RealtimeEvent[]) {
  for (const event of events) for (const hook of publishedHooks) hook(event);
}

/** Runs `hook` for each event this instance publishes outside a transaction, as soon as it is sent. */
export function onPublished(hook: Listener): () => void {
  publishedHooks.add(hook);
  return () => publishedHooks.delete(hook);
}

/**
 * Counts the times this instance started listening; null while it is not.
 * Events sent while an instance was not listening never reach it, so what it
 * caches because no event said otherwise (server/page-cache.ts, app/.server/platform/read-cache.ts) is valid only
 * within one listening period.
 */
let listeningPeriod: number | null = null;
let periods = 0;

export function currentListeningPeriod(): number | null {
  return listeningPeriod;
}

/** Open event streams, ended when the server stops so that they never hold the shutdown. */
const streams = new Set<() => void>();

/** Registers how to end one open stream; returns how to forget it. */
export function trackStream(end: () => void): () => void {
  streams.add(end);
  return () => streams.delete(end);
}

/** Ends every open stream (browsers reconnect, to another instance or after the restart). */
export function endStreams() {
  for (const end of [...streams]) end();
  streams.clear();
}

export function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** How many listeners are subscribed (each open stream holds one). */
export function listenerCount(): number {
  return listeners.size;
}

function deliver(payload: string | undefined) {
  if (!payload) return;
  let event: RealtimeEvent;
  try {
    event = JSON.parse(payload) as RealtimeEvent;
  } catch {
    return;
  }
  for (const listener of listeners) {
    try {
      listener(event);
    } catch (error) {
      console.error("[realtime] listener failed:", error);
    }
  }
}

const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 30_000;

/**
 * A LISTEN connection can die without a word: a NAT or firewall that forgets
 * an idle connection drops its packets and sends no reset, and the instance
 * would serve what it cached, missing every change, for as long as TCP takes to
 * notice (many minutes). So each instance sends itself a notification on its
 * own channel every few seconds through that connection; when none has come
 * back for `HEARTBEAT_LOST_MS`, it clears its caches, ends its browsers'
 * streams (they reconnect and refresh) and listens again on a new connection.
 */
const HEARTBEAT_EVERY_MS = 3_000;
const HEARTBEAT_LOST_MS = 10_000;
/** TCP keepalive on the connection as well, for what the heartbeat cannot see (a half-open socket while idle). */
const KEEPALIVE_DELAY_MS = 10_000;

/** Starts listening on the open database; returns how to stop. */
export async function startRealtime(handle: DatabaseHandle): Promise<() => Promise<void>> {
  if (!("pool" in handle.raw)) {
    // The embedded database is in this process: it never stops listening while open.
    const embedded = "pglite" in handle.raw ? handle.raw.pglite : handle.raw.thread;
    const unlisten = await embedded.listen(EVENTS_CHANNEL, deliver);
    listeningPeriod = ++periods;
    return async () => {
      listeningPeriod = null;
      await unlisten();
    };
  }
  // A dedicated connection: LISTEN needs one session for as long as we listen.
  const connectionString = (handle.raw.pool.options as { connectionString?: string }).connectionString;
  const heartbeatChannel = `namecard_alive_${randomBytes(6).toString("hex")}`;
  let client: pg.Client | undefined;
  let stopped = false;
  let delay = RECONNECT_MIN_MS;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;

  /** The connection is gone or mute: nothing cached may be trusted until a new one listens. */
  const lose = (connection: pg.Client, reason: string) => {
    // Only the connection listening now; one that failed before it listened is retried by connect().
    if (connection !== client) return;
    client = undefined;
    clearInterval(heartbeat);
    listeningPeriod = null;
    console.error(`[realtime] ${reason}: pages kept here are dropped, and it listens again`);
    endStreams();
    connection.removeAllListeners("notification");
    // A mute connection would wait forever for a polite goodbye: end() cuts one with a query pending.
    connection.end().catch(() => {});
    schedule();
  };

  const connect = async () => {
    const next = new pg.Client({ connectionString, keepAlive: true, keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS });
    let heardAt = Date.now();
    next.on("notification", (message) => {
      if (message.channel === heartbeatChannel) heardAt = Date.now();
      else deliver(message.payload);
    });
    next.on("error", (error) => lose(next, `listener connection lost (${error.message})`));
    try {
      await next.connect();
      await next.query(`LISTEN ${EVENTS_CHANNEL}`);
      await next.query(`LISTEN ${heartbeatChannel}`);
      client = next;
      listeningPeriod = ++periods;
      delay = RECONNECT_MIN_MS;
      heartbeat = setInterval(() => {
        const silentMs = Date.now() - heardAt;
        if (silentMs > HEARTBEAT_LOST_MS) {
          lose(next, `no heartbeat through the listener connection for ${Math.round(silentMs / 1000)} s`);
          return;
        }
        next.query("select pg_notify($1, '')", [heartbeatChannel]).catch(() => {});
      }, HEARTBEAT_EVERY_MS);
      heartbeat.unref();
    } catch (error) {
      console.error("[realtime] could not listen:", (error as Error).message);
      await next.end().catch(() => {});
      schedule();
    }
  };
  const schedule = () => {
    if (stopped) return;
    clearTimeout(retry);
    retry = setTimeout(connect, delay);
    delay = Math.min(delay * 2, RECONNECT_MAX_MS);
  };
  await connect();
  return async () => {
    stopped = true;
    listeningPeriod = null;
    clearTimeout(retry);
    clearInterval(heartbeat);
    await client?.end().catch(() => {});
  };
}
