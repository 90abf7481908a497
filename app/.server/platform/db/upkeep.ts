import { sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { diskSpaceLow } from "../disk-space";
import { getDatabaseHandle, rowsOf } from "./client";

/**
 * The embedded database's upkeep. A PostgreSQL server's autovacuum keeps the
 * planner's statistics current and gives back the room of rows that updates
 * and deletes left behind. PGlite runs no background work, so neither ever
 * happened: a table filled in bulk kept the planner's guess of an empty one (a
 * join over an import's 50,000 rows was planned as a loop over every pair of
 * rows, which held the server for minutes), and every counted view, edit and
 * expired session left a dead row that stayed in the table and its indexes for
 * good. Here the server does what autovacuum would, with its thresholds.
 *
 * The counts of changed and dead rows live in the database's memory and start
 * from none after a restart; the statistics read at each start estimate the
 * dead rows again from their sample, so what a restart forgot is still done.
 */

/** How often the tables are looked at; a look that finds nothing to do is short (bench/README.md, "50,000 rows", has its time). */
const UPKEEP_EVERY_MS = 10 * 60_000;
/** autovacuum's defaults: a table is vacuumed past 50 dead rows plus a fifth of its rows... */
const VACUUM_BASE = 50;
const VACUUM_SHARE = 0.2;
/** ...or past 1,000 rows added since its last vacuum plus a fifth (so that a table only added to, such as the views, is kept too)... */
const INSERT_VACUUM_BASE = 1_000;
const INSERT_VACUUM_SHARE = 0.2;
/** ...and its statistics read again past 50 changed rows plus a tenth. */
const ANALYZE_BASE = 50;
const ANALYZE_SHARE = 0.1;

/**
 * Brings the query planner's statistics of `tables` (of all of Namecard's
 * tables, when none is named) up to date on the embedded database. `ANALYZE`
 * reads a sample of each table: about a second for a whole database of 100,000
 * cards.
 */
export async function refreshPlannerStatistics(...tables: PgTable[]) {
  const handle = getDatabaseHandle();
  // While the disk is low the database is read-only, and statistics can wait for space.
  if (handle.kind !== "pglite" || diskSpaceLow()) return;
  if (tables.length > 0) {
    await handle.db.execute(sql`analyze ${sql.join(tables, sql`, `)}`);
    return;
  }
  // Namecard's own tables: the system catalogs would lengthen every start and change nothing (bench/README.md, "50,000 rows").
  const names = rowsOf(
    await handle.db.execute(sql`select quote_ident(tablename) as name from pg_tables where schemaname = 'public'`),
  ) as { name: string }[];
  if (names.length > 0) await handle.db.execute(sql.raw(`analyze ${names.map(({ name }) => name).join(", ")}`));
}

export type Upkeep = { vacuumed: string[]; analyzed: string[] };

/**
 * Vacuums the tables with more dead or added rows than autovacuum would allow,
 * and reads the statistics of those changed since they were last read, on the
 * embedded database; on PostgreSQL, whose autovacuum does both, it does
 * nothing. The embedded database runs on the server's one thread, which each
 * table holds while it is done: one table at a time, so that requests wait for
 * one table, not all of them. `stopping` is asked between tables.
 */
export async function upkeepEmbeddedDatabase(stopping = () => false): Promise<Upkeep> {
  const done: Upkeep = { vacuumed: [], analyzed: [] };
  const handle = getDatabaseHandle();
  if (handle.kind !== "pglite" || diskSpaceLow()) return done;
  // The counts of the last statements reach the statistics at the next pause of the database, not at once.
  await handle.db.execute(sql`select pg_stat_force_next_flush()`);
  const tables = rowsOf(
    await handle.db.execute(sql`
      select quote_ident(s.relname) as name, s.n_dead_tup::float8 as dead,
        s.n_ins_since_vacuum::float8 as added, s.n_mod_since_analyze::float8 as changed,
        greatest(c.reltuples, 0)::float8 as rows
      from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      where s.schemaname = 'public'`),
  ) as { name: string; dead: number; added: number; changed: number; rows: number }[];
  for (const table of tables) {
    // The disk may run low during a round: the database is read-only then, and the rest waits.
    if (stopping() || diskSpaceLow()) break;
    if (
      table.dead > VACUUM_BASE + VACUUM_SHARE * table.rows ||
      table.added > INSERT_VACUUM_BASE + INSERT_VACUUM_SHARE * table.rows
    ) {
      await handle.db.execute(sql.raw(`vacuum (analyze) ${table.name}`));
      done.vacuumed.push(table.name);
    } else if (table.changed > ANALYZE_BASE + ANALYZE_SHARE * table.rows) {
      await handle.db.execute(sql.raw(`analyze ${table.name}`));
      done.analyzed.push(table.name);
    }
  }
  return done;
}

/**
 * Runs the upkeep every UPKEEP_EVERY_MS on the embedded database. The returned
 * function stops it: a round under way ends after the table it is doing.
 */
export function startEmbeddedUpkeep(): () => Promise<void> {
  if (getDatabaseHandle().kind !== "pglite") return async () => {};
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const timer = setInterval(() => {
    running ??= upkeepEmbeddedDatabase(() => stopped)
      .catch((error: unknown) =>
        console.warn(`[db] the embedded database's upkeep failed: ${(error as Error).message}`),
      )
      .finally(() => {
        running = null;
      });
  }, UPKEEP_EVERY_MS);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
