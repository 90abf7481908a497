import fs from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { type DatabaseHandle, openPglite, rowsOf } from "~/.server/platform/db/client";
import { isUniqueViolation } from "~/.server/platform/db/errors";
import { brands } from "~/.server/platform/db/schema";
import { ON_POSTGRES } from "../support/process-suite";
import { migratedDataDir, SERVER_BUILT, scratchDir } from "../support/server-process";

/**
 * The built server's embedded database runs on a thread of its own
 * (app/.server/platform/db/database-thread.ts). These open it as the server does, from
 * the build, and check what the rest of Namecard relies on: the same values as
 * in-process PGlite, transactions that commit or roll back whole and hold other
 * statements back while open, PostgreSQL's error codes, and notifications.
 */
const EMBEDDED = !ON_POSTGRES;

const opened: DatabaseHandle[] = [];
afterEach(async () => {
  for (const handle of opened.splice(0)) await handle.close();
});

async function copyOfMigrated() {
  const dir = scratchDir("namecard-thread-");
  fs.cpSync(await migratedDataDir(), dir, { recursive: true });
  return path.join(dir, "db");
}

async function open(dataDir: string, thread: boolean) {
  const handle = await openPglite({ dataDir, thread });
  opened.push(handle);
  return handle;
}

async function close(handle: DatabaseHandle) {
  opened.splice(opened.indexOf(handle), 1);
  await handle.close();
}

const count = async (handle: DatabaseHandle, table: string) =>
  Number((rowsOf(await handle.db.execute(sql.raw(`select count(*) as n from ${table}`)))[0] as { n: string }).n);

describe.runIf(EMBEDDED && SERVER_BUILT)("the embedded database on its own thread", () => {
  it("reads back what it wrote with the same values, types and times as the database in the main thread", async () => {
    const dataDir = await copyOfMigrated();
    const threaded = await open(dataDir, true);
    expect("thread" in threaded.raw).toBe(true);
    const [written] = await threaded.db
      .insert(brands)
      .values({ name: "Zoë & Co — Ünïcode", primaryColor: "#102030", website: null })
      .returning();
    const throughThread = await threaded.db.select().from(brands).where(eq(brands.id, written!.id));
    await close(threaded);

    const inProcess = await open(dataDir, false);
    const direct = await inProcess.db.select().from(brands).where(eq(brands.id, written!.id));
    expect(throughThread).toEqual(direct);
    expect(direct[0]!.createdAt).toBeInstanceOf(Date);
    expect(direct[0]!.name).toBe("Zoë & Co — Ünïcode");
  });

  it("commits a transaction whole, rolls back one that throws, and keeps the rows of neither half-written", async () => {
    const handle = await open(await copyOfMigrated(), true);
    await handle.db.execute(sql`create table pairs (id int primary key, note text not null)`);

    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`insert into pairs values (1, 'one')`);
      await tx.execute(sql`insert into pairs values (2, 'two')`);
    });
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.execute(sql`insert into pairs values (3, 'three')`);
        throw new Error("the work failed half-way");
      }),
    ).rejects.toThrow("the work failed half-way");
    // A failing statement inside: the whole transaction is undone, and the error keeps its code.
    const failed = await handle.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into pairs values (4, 'four')`);
        await tx.execute(sql`insert into pairs values (1, 'again')`);
      })
      .catch((error: unknown) => error);
    expect(isUniqueViolation(failed)).toBe(true);
    // Savepoints inside a transaction: the inner one rolls back alone.
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`insert into pairs values (5, 'five')`);
      await tx
        .transaction(async (inner) => {
          await inner.execute(sql`insert into pairs values (6, 'six')`);
          inner.rollback();
        })
        .catch(() => {});
    });

    const ids = rowsOf(await handle.db.execute(sql`select id from pairs order by id`)).map(
      (row) => (row as { id: number }).id,
    );
    expect(ids).toEqual([1, 2, 5]);
  });

  it("holds a statement from outside back until an open transaction ends, then shows it the committed rows", async () => {
    const handle = await open(await copyOfMigrated(), true);
    await handle.db.execute(sql`create table queue (id int primary key)`);
    let outsideResponded = false;
    let outside: Promise<number> | undefined;
    let respondedWhileOpen = true;
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`insert into queue values (1)`);
      outside = count(handle, "queue").then((n) => {
        outsideResponded = true;
        return n;
      });
      // Two more statements of the transaction, sent after the outside read and answered before it.
      await tx.execute(sql`select 1`);
      await tx.execute(sql`insert into queue values (2)`);
      respondedWhileOpen = outsideResponded;
    });
    expect(respondedWhileOpen).toBe(false);
    expect(await outside).toBe(2);
  });

  it("refuses what PostgreSQL refuses with its own error code, and answers the next statement", async () => {
    const handle = await open(await copyOfMigrated(), true);
    await handle.db.execute(sql`create table names (name text primary key)`);
    await handle.db.execute(sql`insert into names values ('ada')`);
    const duplicate = await handle.db.execute(sql`insert into names values ('ada')`).catch((error: unknown) => error);
    expect(isUniqueViolation(duplicate)).toBe(true);
    const syntax = await handle.db.execute(sql`selec 1`).catch((error: unknown) => error);
    expect(syntax).toBeInstanceOf(Error);
    expect(String((syntax as Error).cause ?? syntax)).toMatch(/syntax error/);
    expect(await count(handle, "names")).toBe(1);
  });

  it("delivers a notification before the answer of the statement that sent it, and stops after unlisten", async () => {
    const handle = await open(await copyOfMigrated(), true);
    if (!("thread" in handle.raw)) throw new Error("expected the database thread");
    const heard: string[] = [];
    const unlisten = await handle.raw.thread.listen("namecard_test", (payload) => heard.push(payload));
    await handle.db.execute(sql`select pg_notify('namecard_test', 'card 42 changed')`);
    expect(heard).toEqual(["card 42 changed"]);
    await unlisten();
    await handle.db.execute(sql`select pg_notify('namecard_test', 'unheard')`);
    await handle.db.execute(sql`select 1`);
    expect(heard).toEqual(["card 42 changed"]);
  });

  it("lets go of the data directory when closed, so the next owner opens it", async () => {
    const dataDir = await copyOfMigrated();
    const first = await open(dataDir, true);
    await expect(openPglite({ dataDir, thread: true })).rejects.toThrow(/already|in use|another/i);
    await close(first);
    const next = await open(dataDir, true);
    expect(await count(next, "brands")).toBeGreaterThanOrEqual(0);
    await expect(first.db.execute(sql`select 1`)).rejects.toThrow();
  });
});
