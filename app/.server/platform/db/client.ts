import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { tightenTree } from "../private-data";
import { lockDataDirectory } from "./data-dir-lock";
import { DatabaseThread } from "./database-thread";
import { createEmbedded } from "./embedded";
import { databaseErrorLine } from "./errors";
import { startFromTemplate } from "./pglite-template";
import { budgetLeftMs, REQUEST_BUDGET_MS } from "./request-scope";
import * as schema from "./schema";

type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction or the database itself: what a query helper accepts. */
export type Queryable = Pick<Database, "select" | "insert" | "update" | "delete" | "execute">;

export type DatabaseHandle = {
  kind: "pglite" | "postgres";
  db: Database;
  /** Runs the committed migrations; safe to call from several instances. */
  migrate(): Promise<void>;
  close(): Promise<void>;
  /**
   * The underlying client, for LISTEN/NOTIFY: PGlite in this thread (tests, development),
   * PGlite on a thread of its own (the built server), or PostgreSQL's pool.
   */
  raw: { pglite: PGlite } | { thread: DatabaseThread } | { pool: pg.Pool; stalls: () => PoolStalls };
};

const MIGRATIONS_DIR = path.resolve(process.cwd(), "drizzle");

/**
 * The embedded database stopped after a fault it cannot survive: whatever
 * runs on it would only fail or hang, so the process ends with one line and
 * its supervisor starts it again. Everything answered is on the disk.
 */
function endAfterDatabaseFault(reason: string) {
  console.error(
    `[db] the embedded database stopped after a fault (${reason}): ending the process so that its supervisor starts it again`,
  );
  process.exit(1);
}

/**
 * Opens the embedded database: in this thread, or with `thread` on a thread of
 * its own (database-thread.ts), as the built server runs it.
 */
export async function openPglite(options: {
  dataDir?: string;
  loadDataDir?: Blob | File;
  thread?: boolean;
}): Promise<DatabaseHandle> {
  const { dataDir, loadDataDir } = options;
  // A data directory on disk has one owner at a time; an in-memory database needs no lock.
  const lock = dataDir ? lockDataDirectory(dataDir) : undefined;
  let client: PGlite | DatabaseThread;
  try {
    if (dataDir && !loadDataDir) startFromTemplate(dataDir);
    client =
      options.thread && dataDir
        ? await DatabaseThread.start(dataDir, endAfterDatabaseFault)
        : await createEmbedded({ dataDir, loadDataDir, onFault: endAfterDatabaseFault });
    // PGlite writes its cache files (pg_internal.init) with modes of its own, whatever the umask.
    if (dataDir) tightenTree(dataDir);
  } catch (error) {
    lock?.release();
    throw error;
  }
  // The thread answers the driver's calls as PGlite does (database-thread.ts).
  const db = drizzlePglite(client as PGlite, { schema }) as unknown as Database;
  return {
    kind: "pglite",
    db,
    raw: client instanceof DatabaseThread ? { thread: client } : { pglite: client },
    async migrate() {
      await migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR });
    },
    async close() {
      try {
        if (!client.closed) await client.close();
      } finally {
        lock?.release();
      }
    },
  };
}

const CONNECT_TIMEOUT_MS = 5_000;
/**
 * The longest a statement may run on PostgreSQL before the server cancels it,
 * and the longest this process waits for any answer on a connection before it
 * gives the connection up: a database behind a network that went silent (a
 * proxy or NAT that forgot the connection) never answers, and without a bound
 * the request waited for ever (docs/decisions/040-faults-answered-honestly.md).
 * The server's cancellation comes first, so a slow statement ends cleanly and
 * its connection stays usable.
 */
export const STATEMENT_TIMEOUT_MS = 5_000;
export const ANSWER_TIMEOUT_MS = STATEMENT_TIMEOUT_MS + 1_500;
/** A session left inside a transaction this long (its process gone silent) is ended by the server, freeing its locks. */
const IDLE_IN_TRANSACTION_MS = 60_000;
/** TCP keepalive: a peer that vanished is noticed on an idle connection, not at its next use. */
const KEEPALIVE_AFTER_MS = 10_000;
/** How long after a silent connection health keeps saying so: long enough for a probe every few seconds to see it. */
const STALL_REMEMBERED_MS = 15_000;

/** How the pool's connections fare: a statement waiting now, and the last connection given up for its silence. */
type PoolStalls = { oldestWaitMs: number; lastSilentAt: number | null };

/** The error of a statement a request had no time left for: read as the database not answering in time. */
function budgetSpentError(): Error {
  return new Error(`the database did not answer within the request's ${REQUEST_BUDGET_MS / 1000} s`);
}

/** pg's error for an answer that did not come within `query_timeout`. */
const isSilent = (error: unknown) => error instanceof Error && error.message === "Query read timeout";

/**
 * A pool whose connections give up on a silent server, and whose single
 * statements keep to the request's budget.
 *
 * pg rejects a statement after `query_timeout` but keeps the connection,
 * whose next statements queue behind the one that never ends: here such a
 * connection is destroyed, so the pool replaces it and the statements queued
 * on it fail at once. Only a timeout of the full ANSWER_TIMEOUT_MS counts as
 * silence for /healthz; one the budget shortened is a slow page, not a silent
 * server.
 *
 * The budget is read where a statement is asked for (`Pool.query`, in the
 * request's own context), before a connection is taken: a spent budget takes
 * none. A transaction's statements (on a connection it holds) have no budget,
 * only each statement's bound, so a transaction is never left open by a
 * statement refused halfway through it.
 */
function boundedPool(connectionString: string, max: number, bounded: boolean) {
  const waiting = new Map<number, number>();
  let nextQuery = 0;
  const stalls = { lastSilentAt: null as number | null };
  class BoundedClient extends pg.Client {
    // pg's `query` has many overloads; each form is passed through as it came.
    override query(...args: unknown[]): never {
      const id = nextQuery++;
      waiting.set(id, performance.now());
      const config = args[0] as { callback?: unknown; query_timeout?: number } | undefined;
      const shortened = typeof config === "object" && config !== null && (config.query_timeout ?? 0) > 0;
      const settle = (error?: unknown) => {
        waiting.delete(id);
        if (!isSilent(error)) return;
        if (!shortened) {
          stalls.lastSilentAt = Date.now();
          console.warn("[db] PostgreSQL did not answer in time: the connection is given up");
        }
        // The statement may still run on the server: the connection is no use to anyone now.
        (this as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
      };
      try {
        const last = args.length - 1;
        const callback = args[last];
        if (typeof callback === "function") {
          args[last] = (error: unknown, result: unknown) => {
            settle(error);
            callback(error, result);
          };
          return (super.query as (...all: unknown[]) => never)(...args);
        }
        if (config && typeof config === "object" && typeof config.callback === "function") {
          const given = config.callback as (error: unknown, result: unknown) => void;
          config.callback = (error: unknown, result: unknown) => {
            settle(error);
            given(error, result);
          };
          return (super.query as (...all: unknown[]) => never)(...args);
        }
        const result = (super.query as (...all: unknown[]) => unknown)(...args);
        // A promise is followed to its end; anything else (a cursor, a stream) is not watched.
        if (result instanceof Promise) result.then(() => settle(), settle);
        else settle();
        return result as never;
      } catch (error) {
        settle();
        throw error;
      }
    }
  }
  class BudgetedPool extends pg.Pool {
    // The same overloads, as pg-pool's own `query` takes them.
    override query(...args: unknown[]): never {
      const left = bounded ? budgetLeftMs() : null;
      if (left !== null) {
        if (left <= 0) {
          const callback = args.at(-1);
          if (typeof callback === "function") {
            process.nextTick(() => callback(budgetSpentError()));
            return undefined as never;
          }
          return Promise.reject(budgetSpentError()) as never;
        }
        if (left < ANSWER_TIMEOUT_MS) {
          const first = args[0];
          const config = typeof first === "string" ? { text: first } : { ...(first as object) };
          args[0] = { ...config, query_timeout: Math.ceil(left) };
        }
      }
      return (super.query as (...all: unknown[]) => never)(...args);
    }
  }
  const pool = new BudgetedPool({
    connectionString,
    max,
    Client: BoundedClient,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_AFTER_MS,
    ...(bounded
      ? {
          statement_timeout: STATEMENT_TIMEOUT_MS,
          query_timeout: ANSWER_TIMEOUT_MS,
          idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
        }
      : {}),
  });
  const readStalls = (): PoolStalls => {
    const now = performance.now();
    let oldest = now;
    for (const started of waiting.values()) oldest = Math.min(oldest, started);
    const remembered = stalls.lastSilentAt !== null && Date.now() - stalls.lastSilentAt < STALL_REMEMBERED_MS;
    return { oldestWaitMs: now - oldest, lastSilentAt: remembered ? stalls.lastSilentAt : null };
  };
  return { pool, readStalls };
}

/** An advisory lock key so that two instances never migrate at once. */
const MIGRATION_LOCK = 7_245_001;

/**
 * PostgreSQL through a pool. The server's statements are `bounded` (see
 * STATEMENT_TIMEOUT_MS); scripts that read or write a whole database at once
 * (a backup, a restore, a seed) are not. Migrations run on a connection of their own
 * without the bound, as an index on a large table may take longer.
 */
export function openPostgres(connectionString: string, max = 10, bounded = false): DatabaseHandle {
  const { pool, readStalls } = boundedPool(connectionString, max, bounded);
  // A connection the database ends (a restart, a failover, an administrator's command) must not
  // end the process. The pool listens on its idle connections only: one held by a transaction
  // between two statements, or by a request, had no listener, and its error was thrown as
  // uncaught. Each connection gets one of its own; its next statement fails, and the pool then
  // drops it. The pool re-emits an idle one's error, which is logged here already.
  pool.on("connect", (client) => {
    client.on("error", (error) => console.warn(`[db] a connection was lost: ${databaseErrorLine(error)}`));
  });
  pool.on("error", () => {});
  const db = drizzlePg(pool, { schema }) as unknown as Database;
  return {
    kind: "postgres",
    db,
    raw: { pool, stalls: readStalls },
    async migrate() {
      const client = new pg.Client({ connectionString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
      client.on("error", () => {});
      await client.connect();
      try {
        await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
        await migratePg(drizzlePg(client, { schema }), { migrationsFolder: MIGRATIONS_DIR });
      } finally {
        await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
        await client.end().catch(() => {});
      }
    },
    async close() {
      await pool.end();
    },
  };
}

let current: DatabaseHandle | undefined;

/** Installs the handle every query goes through (the server at boot, tests per file). */
export function setDatabase(handle: DatabaseHandle | undefined) {
  current = handle;
}

export function getDatabaseHandle(): DatabaseHandle {
  if (!current) throw new Error("The database is not open yet: call connectDatabase() first.");
  return current;
}

/**
 * The one Drizzle instance of the process. It forwards to the installed handle
 * so modules can import `db` at top level while the connection opens at boot.
 */
export const db = new Proxy({} as Database, {
  get(_target, property) {
    const target = getDatabaseHandle().db;
    const value = Reflect.get(target, property, target) as unknown;
    return typeof value === "function" ? value.bind(target) : value;
  },
});

/** node-postgres and PGlite shape `execute` results differently. */
export function rowsOf(result: unknown): unknown[] {
  if (Array.isArray(result)) return result;
  return (result as { rows?: unknown[] }).rows ?? [];
}
