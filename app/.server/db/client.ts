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
  raw: { pglite: PGlite } | { thread: DatabaseThread } | { pool: pg.Pool };
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

/** An advisory lock key so that two instances never migrate at once. */
const MIGRATION_LOCK = 7_245_001;

export function openPostgres(connectionString: string, max = 10): DatabaseHandle {
  // A server that does not answer fails a query within seconds instead of holding the request forever.
  const pool = new pg.Pool({ connectionString, max, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
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
    raw: { pool },
    async migrate() {
      const client = await pool.connect();
      try {
        await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
        await migratePg(drizzlePg(client, { schema }), { migrationsFolder: MIGRATIONS_DIR });
      } finally {
        await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
        client.release();
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
