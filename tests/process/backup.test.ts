import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
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
 * and back, which is the same archive restored into the other engine. Damaged
 * and changed archives are refused in one `[restore]` line with nothing
 * written (docs/decisions/012-backups.md).
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

/** The archive of a filled embedded installation, made once for the tests that spoil copies of it. */
let embedded: Promise<{ source: Installation; archive: string }> | undefined;
function embeddedArchive() {
  embedded ??= (async () => {
    const source = { dataDir: await migratedDataDir() };
    return { source, archive: await backUpWhileRunning(source) };
  })();
  return embedded;
}

/** A copy of the archive with its text changed by `edit`, compressed again: a gzip that reads. */
function editedArchive(archive: string, edit: (text: string) => string) {
  const copy = `${archive}.edited-${Math.random().toString(36).slice(2)}`;
  const text = gunzipSync(fs.readFileSync(archive)).toString("utf8");
  const changed = edit(text);
  expect(changed).not.toBe(text);
  fs.writeFileSync(copy, gzipSync(changed));
  return copy;
}

/** What anyone can do to a changed archive: write the SHA-256 of its lines into its last line again. */
function withChecksumRecomputed(text: string) {
  const lines = text.split("\n");
  const last = lines.findIndex((line) => line.startsWith('{"checksum"'));
  const content = lines
    .slice(0, last)
    .map((line) => `${line}\n`)
    .join("");
  const line = JSON.parse(lines[last] ?? "") as { checksum: { sha256: string } };
  line.checksum.sha256 = createHash("sha256").update(content).digest("hex");
  lines[last] = JSON.stringify(line);
  return lines.join("\n");
}

/** Restores `archive` into an empty embedded installation and expects one `[restore]` line, exit 1 and nothing written. */
async function expectRefused(archive: string, reason: RegExp) {
  const target = { dataDir: await migratedDataDir() };
  const refused = await restoreInto(target, archive);
  expect(refused.code, refused.output).toBe(1);
  const said = refused.output.split("\n").filter((line) => line.includes("[restore]"));
  expect(said, refused.output).toEqual([expect.stringMatching(reason)]);
  // A sentence, not a stack trace.
  expect(refused.output).not.toMatch(/^\s+at /m);
  expect(Object.values(await contentsOf(target)).every((rows) => rows.length === 0)).toBe(true);
  expect(filesIn(path.join(target.dataDir, "uploads"))).toEqual({});
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
    const { source, archive } = await embeddedArchive();
    const copy = await emptyInstallation("pglite");
    const restored = await restoreInto(copy, archive);
    expect(restored.code, restored.output).toBe(0);
    // Made under this AUTH_SECRET: restored without a warning, and every sealed secret opens.
    expect(restored.output.split("\n").filter((line) => line.includes("[restore]"))).toEqual([
      expect.stringMatching(/^\[restore\] users 2, .*; 5 files restored into the embedded database$/),
    ]);
    await expectSameInstallation(source, copy);

    // A second restore into the same, no longer empty installation changes nothing.
    const again = await restoreInto(copy, archive);
    expect(again.code).toBe(1);
    expect(again.output).toMatch(/already holds data .*restore into an empty DATA_DIR or an empty PostgreSQL database/);
    await expectSameInstallation(source, copy);
  }, 240_000);

  it("refuses an archive with a byte flipped in its gzip, saying it is damaged, and restores nothing", async () => {
    const { archive } = await embeddedArchive();
    const bytes = fs.readFileSync(archive);
    const flipped = Buffer.from(bytes);
    const middle = Math.floor(bytes.length / 2);
    flipped[middle] = (flipped[middle] as number) ^ 0xff;
    const copy = `${archive}.flipped`;
    fs.writeFileSync(copy, flipped);
    await expectRefused(copy, /^\[restore\] .*\.flipped is (damaged|cut short): .*Nothing was restored\.$/);
  }, 240_000);

  it("refuses an archive cut short, saying so, and restores nothing", async () => {
    const { archive } = await embeddedArchive();
    const cut = `${archive}.cut`;
    const bytes = fs.readFileSync(archive);
    fs.writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await expectRefused(cut, /^\[restore\] .*\.cut is cut short: .*Nothing was restored\.$/);
  }, 240_000);

  it("refuses an archive with a name changed in a valid gzip: it no longer matches its checksum", async () => {
    const { archive } = await embeddedArchive();
    const copy = editedArchive(archive, (text) => text.replace('"first_name":"Pho"', '"first_name":"Bob"'));
    await expectRefused(
      copy,
      /^\[restore\] .* was changed or damaged after it was made: its content does not match its SHA-256 checksum\. Nothing was restored\.$/,
    );
  }, 240_000);

  it("refuses an archive changed with its checksum recomputed: its HMAC does not match this AUTH_SECRET", async () => {
    const { archive } = await embeddedArchive();
    const copy = editedArchive(archive, (text) =>
      withChecksumRecomputed(text.replace('"first_name":"Pho"', '"first_name":"Bob"')),
    );
    await expectRefused(
      copy,
      /^\[restore\] .* is intact, but this installation cannot tell who made it: its HMAC does not match this AUTH_SECRET .*--trust-archive .*Nothing was restored\.$/,
    );
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
