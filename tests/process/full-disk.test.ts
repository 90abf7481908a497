import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importPage, postImport, uploadImport } from "../support/imports";
import { ON_POSTGRES, startedProcesses } from "../support/process-suite";
import {
  freePort,
  launch,
  migratedDataDir,
  SERVER_BUILT,
  serverEnv,
  signedInMember,
  startServer,
  stop,
} from "../support/server-process";
import { fillDisk, freeDisk, smallDisk } from "../support/small-disk";

/**
 * The embedded database on a disk that fills up: on a small file system of
 * its own (a tmpfs), the server starts, imports and stops the way an operator
 * can act on — one line that says what happened, a server that keeps
 * answering, and nothing lost or half written once space is back.
 */
const started = startedProcesses("the full-disk tests");

/** A small disk holding a migrated installation (about 40 MB of database). */
async function installationOnSmallDisk() {
  const disk = smallDisk(72);
  if (!disk) return null;
  const dataDir = path.join(disk, "data");
  fs.cpSync(await migratedDataDir(), dataDir, { recursive: true });
  return { disk, dataDir };
}

const ROWS = 4_000;

function peopleFile() {
  const lines = ["First name;Last name;E-mail;Job title"];
  for (let n = 0; n < ROWS; n++) lines.push(`Person;Number ${n};full.disk.${n}@example.org;Engineer of things`);
  return lines.join("\r\n");
}

const stackLine = /^\s+at /m;

describe.skipIf(ON_POSTGRES || !SERVER_BUILT)("the embedded database on a full disk", () => {
  it("refuses to start with one line that names DATA_DIR, and starts once space is back", async () => {
    const where = await installationOnSmallDisk();
    if (!where) return;
    fillDisk(where.disk);
    const port = await freePort();
    const refused = launch(process.execPath, ["server.js"], serverEnv({ port, dataDir: where.dataDir }));
    started.push(refused);
    expect(await refused.exited).toEqual({ code: 1, signal: null });
    expect(refused.output()).toMatch(/^\[config\] DATA_DIR: .* is on a full disk: free some space/m);
    expect(refused.output()).not.toMatch(stackLine);

    freeDisk(where.disk);
    const server = await startServer({ dataDir: where.dataDir, port });
    started.push(server);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(await stop(server)).toEqual({ code: 0, signal: null });
  }, 180_000);

  it("stops an import that fills the disk with one line, keeps answering, and finishes it once space is back", async () => {
    const where = await installationOnSmallDisk();
    if (!where) return;
    const server = await startServer({ dataDir: where.dataDir });
    started.push(server);
    const cookie = await signedInMember(server, "admin@example.com", { first: "Ada", last: "Admin" });
    const admin = { server, cookie };
    const location = await uploadImport(admin, peopleFile());

    // Room for the import's first writes, not for all of them.
    fillDisk(where.disk, 1_500);
    await postImport(admin, location, "start", { columns: ["firstName", "lastName", "email", "title"] });
    await expect.poll(async () => (await importPage(admin, location)).interrupted, { timeout: 60_000 }).toBe(true);

    // The server answers, and its health says what is true: the disk is full.
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ dataDirectory: { ok: false } });
    const stopped = server
      .output()
      .split("\n")
      .filter((line) => line.startsWith("[import]"));
    expect(stopped).toEqual([expect.stringMatching(/stopped: .*No space left on device/)]);
    // The log names the cause, never the people being imported.
    expect(server.output()).not.toContain("full.disk.");
    expect(server.output()).not.toMatch(stackLine);

    freeDisk(where.disk);
    await postImport(admin, location, "retry");
    await expect.poll(async () => (await importPage(admin, location)).finished, { timeout: 90_000 }).toBe(true);
    const { page } = await importPage(admin, location);
    expect(page).toMatch(new RegExp(`${ROWS.toLocaleString("en-US")} of ${ROWS.toLocaleString("en-US")} rows`));
    expect(await stop(server)).toEqual({ code: 0, signal: null });
  }, 240_000);
});
