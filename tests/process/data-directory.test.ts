import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openPglite, rowsOf } from "~/.server/platform/db/client";
import { ON_POSTGRES, startedProcesses } from "../support/process-suite";
import {
  freePort,
  launch,
  migratedDataDir,
  runScript,
  SERVER_BUILT,
  serverEnv,
  signedInMember,
  startServer,
  stop,
} from "../support/server-process";

/** Real server processes on one embedded DATA_DIR; the PostgreSQL run has nothing to add here. */
const EMBEDDED = !ON_POSTGRES;

const started = startedProcesses("the data-directory tests");

/** No stack trace: an operator's fault is answered with one line. */
function expectOneLine(output: string, pattern: RegExp) {
  const lines = output.split("\n").filter((line) => pattern.test(line));
  expect(lines).toHaveLength(1);
  expect(output).not.toMatch(/^\s+at /m);
}

async function rowsIn(dataDir: string) {
  const handle = await openPglite({ dataDir: path.join(dataDir, "db") });
  try {
    const count = async (query: ReturnType<typeof sql>) =>
      Number((rowsOf(await handle.db.execute(query))[0] as { n: number | string }).n);
    await handle.db.execute(sql`set enable_seqscan = off`);
    const byIndex = await count(sql`select count(*) as n from profiles where lower(username) >= ''`);
    await handle.db.execute(sql`set enable_seqscan = on`);
    await handle.db.execute(sql`set enable_indexscan = off`);
    await handle.db.execute(sql`set enable_bitmapscan = off`);
    const byScan = await count(sql`select count(*) as n from profiles`);
    const users = await count(sql`select count(*) as n from users`);
    return { byIndex, byScan, users };
  } finally {
    await handle.close();
  }
}

describe.skipIf(!EMBEDDED || !SERVER_BUILT)("one process per embedded data directory", () => {
  it("refuses a second server and a seed while one runs, with one line naming it, and the data stays whole", async () => {
    const dataDir = await migratedDataDir();
    const first = await startServer({ dataDir });
    started.push(first);
    await signedInMember(first, "owner@example.com");

    const second = launch(process.execPath, ["server.js"], serverEnv({ port: await freePort(), dataDir }));
    started.push(second);
    expect((await second.exited).code).toBe(1);
    expectOneLine(second.output(), new RegExp(`in use by process ${first.child.pid} .*stop that process first`));

    const seed = await runScript("scripts/seed.ts", [], serverEnv({ port: first.port, dataDir }));
    expect(seed.code).toBe(1);
    expectOneLine(seed.output, new RegExp(`in use by process ${first.child.pid} .*set DATA_DIR to another folder`));

    // The first server still answers, with the member it saved.
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
    expect(await stop(first)).toEqual({ code: 0, signal: null });
    expect(fs.existsSync(path.join(dataDir, "db.lock"))).toBe(false);
    // Every row is in the table and in its indexes.
    expect(await rowsIn(dataDir)).toEqual({ byIndex: 1, byScan: 1, users: 1 });
  }, 120_000);

  it("takes over the lock of a server that was killed, and says so", async () => {
    const dataDir = await migratedDataDir();
    const killed = await startServer({ dataDir });
    started.push(killed);
    expect((await stop(killed, "SIGKILL")).signal).toBe("SIGKILL");
    expect(fs.existsSync(path.join(dataDir, "db.lock"))).toBe(true);

    const next = await startServer({ dataDir });
    started.push(next);
    expect(next.output()).toMatch(/took over db\.lock left by a process that is gone/);
    expect((await fetch(`${next.url}/healthz`)).status).toBe(200);
  }, 120_000);
});
