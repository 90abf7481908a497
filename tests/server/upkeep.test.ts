import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, getDatabaseHandle, openPglite, rowsOf, setDatabase } from "~/.server/platform/db/client";
import { refreshPlannerStatistics, upkeepEmbeddedDatabase } from "~/.server/platform/db/upkeep";

const ON_POSTGRES = process.env.NAMECARD_TEST_DB === "postgres";

/** What the database's statistics say of the brands table, with this session's counts flushed to them first. */
async function brandsTable() {
  await db.execute(sql`select pg_stat_force_next_flush()`);
  // The flush happens when the database goes idle after a statement: one more makes sure it has.
  await db.execute(sql`select 1`);
  await db.execute(sql`select pg_stat_clear_snapshot()`);
  const [row] = rowsOf(
    await db.execute(sql`
      select s.n_dead_tup::int as dead, s.n_mod_since_analyze::int as changed, c.reltuples::int as rows
      from pg_stat_user_tables s join pg_class c on c.oid = s.relid where s.relname = 'brands'`),
  ) as { dead: number; changed: number; rows: number }[];
  return row;
}

describe.skipIf(ON_POSTGRES)("the embedded database's upkeep", () => {
  it("reads a table's statistics again once many of its rows changed, and leaves it alone when few did", async () => {
    await db.execute(sql`insert into brands (name) select 'Brand ' || n from generate_series(1, 300) n`);
    await brandsTable();

    const first = await upkeepEmbeddedDatabase();
    expect(first.analyzed).toContain("brands");
    expect(first.vacuumed).not.toContain("brands");
    expect(await brandsTable()).toMatchObject({ rows: 300, changed: 0 });

    // Ten more rows are under autovacuum's threshold (50 plus a tenth of 300).
    await db.execute(sql`insert into brands (name) select 'More ' || n from generate_series(1, 10) n`);
    await brandsTable();
    const second = await upkeepEmbeddedDatabase();
    expect([...second.analyzed, ...second.vacuumed]).not.toContain("brands");
  });

  it("keeps a table that is only added to, as the views are, once more than a thousand rows came", async () => {
    await db.execute(sql`insert into brands (name) select 'Brand ' || n from generate_series(1, 1100) n`);
    const done = await upkeepEmbeddedDatabase();
    expect(done.vacuumed).toContain("brands");
    const [row] = rowsOf(
      await db.execute(sql`select n_ins_since_vacuum::int as added from pg_stat_user_tables where relname = 'brands'`),
    ) as { added: number }[];
    expect(row?.added).toBe(0);
  });

  it("gives back the room of updated and deleted rows, which nothing else on the embedded database does", async () => {
    await db.execute(sql`insert into brands (name) select 'Brand ' || n from generate_series(1, 300) n`);
    await db.execute(sql`update brands set name = name || ' renamed'`);
    await db.execute(sql`delete from brands where name like 'Brand 1%'`);
    expect((await brandsTable())?.dead).toBeGreaterThanOrEqual(300);

    const done = await upkeepEmbeddedDatabase();
    expect(done.vacuumed).toContain("brands");
    const after = await brandsTable();
    expect(after).toMatchObject({ dead: 0, changed: 0 });
    expect(after?.rows).toBe(300 - 111);
  });
});

describe.skipIf(ON_POSTGRES)("the embedded database's upkeep across a restart", () => {
  it("still gives back the room of rows left dead before the restart, which the database forgot it counted", async () => {
    const worker = getDatabaseHandle();
    const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "namecard-upkeep-")), "db");
    try {
      let handle = await openPglite({ dataDir });
      await handle.migrate();
      await handle.db.execute(sql`insert into brands (name) select 'Brand ' || n from generate_series(1, 300) n`);
      await handle.db.execute(sql`update brands set name = name || ' renamed'`);
      await handle.close();

      // The counts live in the database's memory: a new start begins from none.
      handle = await openPglite({ dataDir });
      setDatabase(handle);
      try {
        expect((await brandsTable())?.dead).toBe(0);
        // The start reads the statistics again (server/app.ts), which estimates the dead rows from a sample.
        await refreshPlannerStatistics();
        expect((await brandsTable())?.dead).toBeGreaterThanOrEqual(300);
        expect((await upkeepEmbeddedDatabase()).vacuumed).toContain("brands");
        expect((await brandsTable())?.dead).toBe(0);
      } finally {
        await handle.close();
      }
    } finally {
      setDatabase(worker);
      fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
    }
  }, 60_000);
});

describe.runIf(ON_POSTGRES)("the upkeep on PostgreSQL", () => {
  it("is left to the server's own autovacuum", async () => {
    await db.execute(sql`insert into brands (name) select 'Brand ' || n from generate_series(1, 300) n`);
    await db.execute(sql`update brands set name = name || ' renamed'`);
    expect(await upkeepEmbeddedDatabase()).toEqual({ vacuumed: [], analyzed: [] });
  });
});
