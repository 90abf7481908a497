import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { contentsOf, filesIn } from "../support/database-contents";
import { populate } from "../support/populate";
import { createScratchDatabase, POSTGRES_URL } from "../support/postgres";
import { ON_POSTGRES, startedProcesses } from "../support/process-suite";
import {
  freePort,
  migratedDataDir,
  runScript,
  SERVER_BUILT,
  scratchDir,
  serverEnv,
  startServer,
  stop,
} from "../support/server-process";

/**
 * `npm run backup` while the server runs, `npm run restore` into an empty
 * installation, and every row and every file compared. The embedded run keeps
 * to PGlite; the PostgreSQL run moves an embedded installation to PostgreSQL
 * and back, which is the same archive restored into the other engine.
 */

const started = startedProcesses("the backup tests");
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

type Installation = { dataDir: string; databaseUrl?: string };

async function emptyInstallation(engine: "pglite" | "postgres"): Promise<Installation> {
  if (engine === "pglite") return { dataDir: scratchDir() };
  const database = await createScratchDatabase();
  cleanups.push(database.drop);
  return { dataDir: scratchDir(), databaseUrl: database.url };
}

/** Runs a filled server on `source`, backs it up while it runs, and stops it. */
async function backUpWhileRunning(source: Installation) {
  const server = await startServer(source);
  started.push(server);
  await populate(server);
  const archive = path.join(scratchDir("namecard-archive-"), "backup.ndjson.gz");
  const env = serverEnv({ port: server.port, dataDir: source.dataDir, databaseUrl: source.databaseUrl });
  const backup = await runScript("scripts/backup.ts", [archive], env);
  expect(backup.code, backup.output).toBe(0);
  expect(backup.output).toMatch(/\[backup\] wrote /);
  // The server kept serving while it was backed up.
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  expect(await stop(server)).toEqual({ code: 0, signal: null });
  return archive;
}

async function restoreInto(target: Installation, archive: string) {
  const env = serverEnv({ port: await freePort(), dataDir: target.dataDir, databaseUrl: target.databaseUrl });
  return runScript("scripts/restore.ts", [archive], env);
}

async function expectSameInstallation(source: Installation, copy: Installation) {
  const [before, after] = await Promise.all([contentsOf(source), contentsOf(copy)]);
  expect(before.profiles).toHaveLength(2);
  expect(before.brands).toHaveLength(1);
  expect(before.profile_views!.length).toBeGreaterThan(0);
  expect(after).toEqual(before);
  const files = filesIn(path.join(source.dataDir, "uploads"));
  // A photo in two renditions, a logo, a cover and the site's favicon.
  expect(Object.keys(files)).toHaveLength(5);
  expect(filesIn(path.join(copy.dataDir, "uploads"))).toEqual(files);
}

describe.skipIf(ON_POSTGRES || !SERVER_BUILT)("backups of the embedded database", () => {
  it("backs up a running server and restores every row and every file into an empty DATA_DIR", async () => {
    const source = { dataDir: await migratedDataDir() };
    const archive = await backUpWhileRunning(source);
    const copy = await emptyInstallation("pglite");
    const restored = await restoreInto(copy, archive);
    expect(restored.code, restored.output).toBe(0);
    await expectSameInstallation(source, copy);

    // A second restore into the same, no longer empty installation changes nothing.
    const again = await restoreInto(copy, archive);
    expect(again.code).toBe(1);
    expect(again.output).toMatch(/already holds data .*restore into an empty DATA_DIR or an empty PostgreSQL database/);
    await expectSameInstallation(source, copy);

    // An archive cut short restores nothing.
    const cut = `${archive}.cut`;
    const bytes = fs.readFileSync(archive);
    fs.writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const empty = { dataDir: await migratedDataDir() };
    expect((await restoreInto(empty, cut)).code).not.toBe(0);
    expect(Object.values(await contentsOf(empty)).every((rows) => rows.length === 0)).toBe(true);
  }, 240_000);
});

describe.skipIf(!ON_POSTGRES || !POSTGRES_URL || !SERVER_BUILT)("one archive, either engine", () => {
  it("moves an embedded installation to PostgreSQL with every row and file", async () => {
    const source = { dataDir: await migratedDataDir() };
    const archive = await backUpWhileRunning(source);
    const copy = await emptyInstallation("postgres");
    const restored = await restoreInto(copy, archive);
    expect(restored.code, restored.output).toBe(0);
    await expectSameInstallation(source, copy);
  }, 240_000);

  it("backs up a running server on PostgreSQL and restores it into an embedded DATA_DIR", async () => {
    const source = await emptyInstallation("postgres");
    const archive = await backUpWhileRunning(source);
    const copy = await emptyInstallation("pglite");
    const restored = await restoreInto(copy, archive);
    expect(restored.code, restored.output).toBe(0);
    await expectSameInstallation(source, copy);
  }, 240_000);
});
