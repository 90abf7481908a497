import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createScratchDatabase } from "../support/postgres";
import { startedProcesses } from "../support/process-suite";
import { SERVER_BUILT, startServer } from "../support/server-process";

/**
 * Several replicas of a new version started at once against one PostgreSQL database, as an
 * orchestrator starts them: one applies the migrations while the others wait for it, and
 * every replica then serves the same schema. (This file runs on PostgreSQL only.)
 */
const started = startedProcesses("the replicas-starting-together tests");
const drops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const drop of drops.splice(0)) await drop();
});

describe.skipIf(!SERVER_BUILT)("replicas starting together", () => {
  it("apply each migration once between them, and all serve once it is done", async () => {
    const database = await createScratchDatabase();
    drops.push(database.drop);

    const replicas = await Promise.all([1, 2, 3].map(() => startServer({ databaseUrl: database.url })));
    started.push(...replicas);

    for (const replica of replicas) {
      expect(replica.output()).toMatch(/\[db\] PostgreSQL: migrations applied/);
      expect((await fetch(`${replica.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${replica.url}/directory`, { redirect: "manual" })).status).toBeLessThan(500);
    }

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const applied = await client.query<{ hash: string; count: string }>(
        "select hash, count(*) from drizzle.__drizzle_migrations group by hash",
      );
      expect(applied.rows.length).toBeGreaterThan(30);
      expect(applied.rows.filter((row) => row.count !== "1")).toEqual([]);
    } finally {
      await client.end();
    }
  });
});
