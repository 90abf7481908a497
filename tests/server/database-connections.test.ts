import { sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openPostgres, rowsOf } from "~/.server/db/client";
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
});
