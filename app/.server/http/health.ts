import { sql } from "drizzle-orm";
import { ANSWER_TIMEOUT_MS, db, getDatabaseHandle } from "../platform/db/client";
import { BEAT_EVERY_MS } from "../platform/db/database-thread-protocol";
import { healthChecks } from "../platform/db/schema";
import { diskSpaceLow, lowSpaceLine } from "../platform/disk-space";
import { dataDirectoryInUse, env } from "../platform/env";
import { probeDirectory } from "../platform/monitor";

/**
 * What `/healthz` reports (docs/decisions/011-outages-and-health.md): the
 * database answers a read and takes a committed write, and, where files live
 * on this machine (the embedded database, uploads, the mail outbox), DATA_DIR
 * takes a synced write and has room left. Nothing is cached: a check that
 * failed passes again as soon as the cause is gone (a probe of DATA_DIR asked
 * for while one is under way shares its result).
 */
type Check = { ok: boolean; error?: string };
export type Health = { ok: boolean; database: Check; dataDirectory: Check };

/** Each check gives up after this long, so a database that hangs reads as down, not as a hung probe. */
const CHECK_TIMEOUT_MS = 3_000;
/** Below this much free space in DATA_DIR, writes are about to fail: report it before they do. */
const MIN_FREE_BYTES = 16 * 1024 * 1024;

/** A timer this late means the thread was busy, not that the check was slow. */
const BUSY_MS = 50;
/** The most time given back to a check for a busy thread. */
const MAX_EXTENSION_MS = 30_000;

/**
 * `work`, or an error once it has had `CHECK_TIMEOUT_MS` of the server's time.
 * While this thread is busy nothing can answer, the check included: a timer
 * that fires late by that much gives the check as much again. The same goes
 * for the embedded database's thread while one long statement runs on it
 * (`busyElsewhereMs`): the check waits behind it, as it did when the database
 * ran on this thread. So only a check that had its time and stayed silent is
 * reported so. A thread stuck for good is the watchdog's (server/watchdog.ts).
 */
function withTimeout<T>(work: Promise<T>, what: string, busyElsewhereMs: () => number = () => 0): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    const wait = (ms: number, extendedMs: number) => {
      const due = performance.now() + ms;
      timer = setTimeout(() => {
        const lateMs = Math.max(performance.now() - due, busyElsewhereMs());
        if (lateMs > BUSY_MS && extendedMs + lateMs <= MAX_EXTENSION_MS) wait(lateMs, extendedMs + lateMs);
        else reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS / 1000} s`));
      }, ms);
    };
    wait(CHECK_TIMEOUT_MS, 0);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** How long the embedded database's thread has been inside one statement: 0 when it is not, or runs on this thread. */
function databaseThreadBusyMs(): number {
  const { raw } = getDatabaseHandle();
  return "thread" in raw ? Math.max(0, raw.thread.silentMs() - BEAT_EVERY_MS) : 0;
}

function messageOf(error: unknown): string {
  let current = error as { message?: string; cause?: unknown } | undefined;
  while (current?.cause) current = current.cause as typeof current;
  return current?.message ?? String(error);
}

/**
 * PostgreSQL's connections as requests meet them: a statement waiting past the
 * server's time limit, or a connection given up for its silence lately, means
 * requests are failing even while a fresh connection answers the probe.
 */
function silentConnections(): string | null {
  const { raw } = getDatabaseHandle();
  if (!("stalls" in raw)) return null;
  const { oldestWaitMs, lastSilentAt } = raw.stalls();
  if (oldestWaitMs > ANSWER_TIMEOUT_MS) {
    return `a statement has waited ${(oldestWaitMs / 1000).toFixed(1)} s for PostgreSQL`;
  }
  if (lastSilentAt !== null) {
    return `PostgreSQL left a connection unanswered ${Math.round((Date.now() - lastSilentAt) / 1000)} s ago`;
  }
  return null;
}

async function checkDatabase(): Promise<Check> {
  const silent = silentConnections();
  if (silent) return { ok: false, error: silent };
  try {
    await withTimeout(
      (async () => {
        await db.execute(sql`select 1`);
        // A disk below its reserve has made the embedded database read-only on purpose: reads are what it offers.
        if (diskSpaceLow()) return;
        await db
          .insert(healthChecks)
          .values({ id: 1, checkedAt: new Date() })
          .onConflictDoUpdate({ target: healthChecks.id, set: { checkedAt: sql`excluded.checked_at` } });
      })(),
      "the database",
      databaseThreadBusyMs,
    );
    return { ok: true };
  } catch (error) {
    return { ok: false, error: messageOf(error) };
  }
}

async function checkDataDirectory(): Promise<Check> {
  const low = diskSpaceLow();
  if (low) return { ok: false, error: lowSpaceLine(low).replace(/^\[disk\] /, "") };
  try {
    // On the server's second thread: here each step would wait for a turn of this busy thread.
    await withTimeout(probeDirectory(env.DATA_DIR, MIN_FREE_BYTES), "DATA_DIR");
    return { ok: true };
  } catch (error) {
    return { ok: false, error: messageOf(error) };
  }
}

export async function checkHealth(): Promise<Health> {
  const [database, dataDirectory] = await Promise.all([
    checkDatabase(),
    // With PostgreSQL, S3, SMTP and a set AUTH_SECRET nothing is kept in DATA_DIR.
    dataDirectoryInUse(env) ? checkDataDirectory() : { ok: true },
  ]);
  return { ok: database.ok && dataDirectory.ok, database, dataDirectory };
}
