import path from "node:path";
import v8 from "node:v8";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { tightenTree } from "../private-data";
import { lockDataDirectory } from "./data-dir-lock";
import { DurableNodeFS } from "./durable-fs";
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
  /** The underlying client, for LISTEN/NOTIFY. */
  raw: { pglite: PGlite } | { pool: pg.Pool };
};

const MIGRATIONS_DIR = path.resolve(process.cwd(), "drizzle");

/** PGlite needs its extensions loaded when it is created; loading them later fails. */
const PGLITE_EXTENSIONS = { pg_trgm, unaccent };

/**
 * PGlite runs inside this process, so PostgreSQL's shared buffers are this
 * process's memory, set aside in full at start: the default 128 MB would be
 * half of a small server. Pages beyond 16 MB are read back from the operating
 * system's file cache, which the kernel shares and reclaims.
 * See docs/decisions/022-memory-on-a-small-server.md.
 */
const PGLITE_MEMORY = ["-c", "shared_buffers=16MB"];

/**
 * PGlite starts PostgreSQL with `-F` (no fsync). An answered edit must survive
 * a power cut, so syncing is on, through `fsync()`: the one call the embedded
 * file system passes on to the disk (durable-fs.ts; `fdatasync` goes nowhere).
 * See docs/decisions/027-durable-embedded-commits.md.
 */
const PGLITE_DURABILITY = ["-c", "fsync=on", "-c", "synchronous_commit=on", "-c", "wal_sync_method=fsync"];

const PGLITE_START_PARAMS = [
  ...PGlite.defaultStartParams.filter((parameter) => parameter !== "-F"),
  ...PGLITE_MEMORY,
  ...PGLITE_DURABILITY,
];

/**
 * V8 compiles PGlite's WebAssembly on as many threads as it likes, and each
 * thread's allocator keeps what the compiler used long after: about 30 MB of
 * an idle server. One compiling thread makes the same code. Read when a module
 * is compiled, so it applies to the PGlite created next.
 */
v8.setFlagsFromString("--wasm-num-compilation-tasks=1");

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

export async function openPglite(options: { dataDir?: string; loadDataDir?: Blob | File }): Promise<DatabaseHandle> {
  // A data directory on disk has one owner at a time; an in-memory database needs no lock.
  const lock = options.dataDir ? lockDataDirectory(options.dataDir) : undefined;
  let client: PGlite;
  try {
    if (options.dataDir && !options.loadDataDir) startFromTemplate(options.dataDir);
    client = await PGlite.create({
      dataDir: options.dataDir,
      fs: options.dataDir ? new DurableNodeFS(options.dataDir, endAfterDatabaseFault) : undefined,
      loadDataDir: options.loadDataDir,
      extensions: PGLITE_EXTENSIONS,
      startParams: PGLITE_START_PARAMS,
    });
    // PGlite writes its cache files (pg_internal.init) with modes of its own, whatever the umask.
    if (options.dataDir) tightenTree(options.dataDir);
  } catch (error) {
    lock?.release();
    throw error;
  }
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    kind: "pglite",
    db,
    raw: { pglite: client },
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
