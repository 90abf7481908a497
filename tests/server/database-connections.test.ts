import { sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "~/.server/platform/db/availability";
import { openPostgres, rowsOf, STATEMENT_TIMEOUT_MS } from "~/.server/platform/db/client";
import { databaseErrorLine } from "~/.server/platform/db/errors";
import { inRequestScope, REQUEST_BUDGET_MS } from "~/.server/platform/db/request-scope";
import { present } from "../support/present";

const POSTGRES_URL = process.env.TEST_DATABASE_URL;

describe.skipIf(process.env.NAMECARD_TEST_DB !== "postgres" || !POSTGRES_URL)("a PostgreSQL connection", () => {
  it("ended by the database while a transaction holds it between statements fails that transaction, not the process", async () => {
    const handle = openPostgres(present(POSTGRES_URL, "TEST_DATABASE_URL"), 2);
    const pool = present("pool" in handle.raw ? handle.raw.pool : undefined, "the connection pool");
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on("uncaughtException", record);
    let held: pg.PoolClient | undefined;
    pool.on("acquire", (client) => (held = client));
    try {
      const transaction = handle.db.transaction(async (tx) => {
        const [row] = rowsOf(await tx.execute(sql`select pg_backend_pid() as pid`)) as { pid: number }[];
        // Waits for the end only: `once` would also reject on the connection's error event, which
        // arrives first, while this promise is not yet awaited.
        const connection = present(held, "the transaction's connection");
        const ended = new Promise<void>((resolve) => connection.once("end", () => resolve()));
        // An administrator's command, a failover or a restart ends the session while no statement runs.
        await admin.query("select pg_terminate_backend($1)", [row?.pid]);
        await ended;
        await tx.execute(sql`select 1`);
      });
      await expect(transaction).rejects.toThrow();
      expect(uncaught).toEqual([]);
      // The pool drops the broken connection: the next query gets a new one.
      expect(rowsOf(await handle.db.execute(sql`select 1 as one`))).toEqual([{ one: 1 }]);
    } finally {
      process.off("uncaughtException", record);
      await admin.end();
      await handle.close();
    }
  });

  it("cancels a statement that runs past its time limit, and the request reads it as the database being unavailable", async () => {
    const handle = openPostgres(present(POSTGRES_URL, "TEST_DATABASE_URL"), 2, true);
    try {
      const slow = handle.db.execute(sql`select pg_sleep(${(STATEMENT_TIMEOUT_MS + 5_000) / 1000})`);
      const error = await slow.then(
        () => null,
        (reason: unknown) => reason,
      );
      expect(error).not.toBeNull();
      expect(isDatabaseUnavailable(error)).toBe(true);
      // PostgreSQL itself cancelled it (57014): the connection is kept and answers the next statement.
      expect(databaseErrorLine(error)).toMatch(/statement timeout \(57014\)/);
      expect(rowsOf(await handle.db.execute(sql`select 1 as one`))).toEqual([{ one: 1 }]);
    } finally {
      await handle.close();
    }
  });

  it("answers a request whose time is spent as the database being unavailable, and ends a statement when the time does", async () => {
    const handle = openPostgres(present(POSTGRES_URL, "TEST_DATABASE_URL"), 2, true);
    try {
      const spent = performance.now() - REQUEST_BUDGET_MS - 1;
      const error = await inRequestScope(async () => await handle.db.execute(sql`select 1`), spent).then(
        () => null,
        (reason: unknown) => reason,
      );
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect(databaseErrorLine(error)).toMatch(/did not answer within the request's 10 s/);
      // With a second left, a statement that would take four ends when the budget does (it would succeed without one).
      const nearlySpent = performance.now() - REQUEST_BUDGET_MS + 1_000;
      const late = await inRequestScope(async () => await handle.db.execute(sql`select pg_sleep(4)`), nearlySpent).then(
        () => null,
        (reason: unknown) => reason,
      );
      expect(isDatabaseUnavailable(late)).toBe(true);
      // Outside a request (the workers, scripts) there is no budget.
      expect(rowsOf(await handle.db.execute(sql`select 1 as one`))).toEqual([{ one: 1 }]);
    } finally {
      await handle.close();
    }
  });
});
