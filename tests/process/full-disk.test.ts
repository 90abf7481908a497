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
  type ServerProcess,
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

/** The embedded database's reserve (DISK_RESERVE_MB's default) and what a start needs at least. */
const RESERVE_KB = 64 * 1024;
const START_KB = 16 * 1024;

/** A small disk holding a migrated installation (about 40 MB of database), with room above the reserve. */
async function installationOnSmallDisk() {
  const disk = smallDisk(160);
  if (!disk) return null;
  const dataDir = path.join(disk, "data");
  fs.cpSync(await migratedDataDir(), dataDir, { recursive: true });
  return { disk, dataDir };
}

const ROWS = 8_000;

function peopleFile() {
  const lines = ["First name;Last name;E-mail;Job title"];
  for (let n = 0; n < ROWS; n++) lines.push(`Person;Number ${n};full.disk.${n}@example.org;Engineer of things`);
  return lines.join("\r\n");
}

const stackLine = /^\s+at /m;

/** The member's own edit form, posted as a browser without JavaScript does. */
async function saveTitle(server: ServerProcess, cookie: string, title: string) {
  const page = await (await fetch(`${server.url}/profile/edit`, { headers: { cookie } })).text();
  const form = new FormData();
  for (const name of ["firstName", "lastName", "email", "username", "phone", "bio", "linkedinUrl", "companyBrandId"]) {
    form.set(name, new RegExp(`name="${name}"[^>]*value="([^"]*)"`).exec(page)?.[1] ?? "");
  }
  form.set("title", title);
  return fetch(`${server.url}/profile/edit`, {
    method: "POST",
    headers: { cookie, origin: server.url },
    body: form,
    redirect: "manual",
  });
}

/** A provisioning connection made on the settings screen: a SCIM client with its token. */
async function provisioningToken(server: ServerProcess, cookie: string) {
  const created = await fetch(`${server.url}/admin/settings/provisioning`, {
    method: "POST",
    headers: { cookie, origin: server.url },
    body: new URLSearchParams({ intent: "create", name: "Entra ID" }),
  });
  const token = /namecard_scim_[A-Za-z0-9_-]+/.exec(await created.text())?.[0] ?? "";
  expect(token).not.toBe("");
  return (method: "GET" | "POST", body?: unknown) =>
    fetch(`${server.url}/scim/v2/Users`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/scim+json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
}

const diskLines = (server: ServerProcess) =>
  server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("[disk]"));

describe.skipIf(ON_POSTGRES || !SERVER_BUILT)("the embedded database on a full disk", () => {
  it("refuses to start on a full disk with one line, starts read-only below the reserve, and takes changes once space is back", async () => {
    const where = await installationOnSmallDisk();
    if (!where) return;
    fillDisk(where.disk);
    const port = await freePort();
    const refused = launch(process.execPath, ["server.js"], serverEnv({ port, dataDir: where.dataDir }));
    started.push(refused);
    expect(await refused.exited).toEqual({ code: 1, signal: null });
    expect(refused.output()).toMatch(
      /^\[config\] DATA_DIR: .* is on a full disk \([\d.]+ MB free; Namecard needs 16\.0 MB to start\): free some space/m,
    );
    expect(refused.output()).not.toMatch(stackLine);

    // Room to start, not to take changes.
    freeDisk(where.disk);
    fillDisk(where.disk, START_KB + 8 * 1024);
    const server = await startServer({ dataDir: where.dataDir, port });
    started.push(server);
    expect(diskLines(server)).toEqual([
      expect.stringMatching(
        /^\[disk\] DATA_DIR .* has [\d.]+ MB free, less than the 64\.0 MB .*: changes are refused until [\d.]+ MB more are free; pages are still read$/,
      ),
    ]);
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ database: { ok: true }, dataDirectory: { ok: false } });
    const signUp = await fetch(`${server.url}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: `http://localhost:${port}` },
      body: JSON.stringify({
        name: "Ful Disk",
        firstName: "Ful",
        lastName: "Disk",
        email: "ful.disk@example.com",
        password: "process password",
      }),
    });
    expect(signUp.status).toBe(507);
    expect(signUp.headers.get("retry-after")).toMatch(/^\d+$/);

    freeDisk(where.disk);
    await expect.poll(async () => (await fetch(`${server.url}/healthz`)).status, { timeout: 30_000 }).toBe(200);
    expect(diskLines(server)).toEqual([expect.any(String), expect.stringMatching(/free again: changes are taken$/)]);
    await signedInMember(server, "ful.disk@example.com", { first: "Ful", last: "Disk" });
    expect(server.output()).not.toMatch(stackLine);
    expect(await stop(server)).toEqual({ code: 0, signal: null });
  }, 180_000);

  it("pauses an import when the disk runs low, refuses changes in words, keeps every page readable, and goes on by itself once space is back", async () => {
    const where = await installationOnSmallDisk();
    if (!where) return;
    const server = await startServer({ dataDir: where.dataDir });
    started.push(server);
    const cookie = await signedInMember(server, "admin@example.com", { first: "Ada", last: "Admin" });
    const admin = { server, cookie };
    const scim = await provisioningToken(server, cookie);
    const location = await uploadImport(admin, peopleFile());
    await postImport(admin, location, "start", { columns: ["firstName", "lastName", "email", "title"] });

    // The disk fills from elsewhere while the import runs: below the reserve, with room to spare.
    fillDisk(where.disk, RESERVE_KB - 16 * 1024);
    await expect
      .poll(async () => (await importPage(admin, location)).page.includes("Paused: the server&#x27;s disk is full"), {
        timeout: 60_000,
      })
      .toBe(true);
    const paused = await importPage(admin, location);
    expect(paused.interrupted).toBe(false);
    expect(paused.page).toContain("The import goes on by itself once space is freed");

    // Reading goes on; a change is refused with a sentence, nothing half saved.
    expect((await fetch(`${server.url}/directory`, { headers: { cookie } })).status).toBe(200);
    const refused = await saveTitle(server, cookie, "Written on a full disk");
    expect(refused.status).toBe(507);
    expect(await refused.text()).toContain("The server&#x27;s disk is full, so nothing was saved.");
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({
      database: { ok: true },
      dataDirectory: { ok: false, error: expect.stringMatching(/MB free, less than the 64\.0 MB/) },
    });
    // The identity provider's changes are refused in SCIM's terms, to be sent again; its reads are answered.
    const provisioned = await scim("POST", { userName: "scim.disk@example.com" });
    expect(provisioned.status).toBe(503);
    expect(provisioned.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await provisioned.json()).toMatchObject({ detail: expect.stringContaining("disk is full") });
    expect((await scim("GET")).status).toBe(200);
    expect(diskLines(server)).toHaveLength(1);
    expect(server.output()).toMatch(/^\[import\] .* waits for disk space: DATA_DIR has [\d.]+ MB free/m);
    // The log names the cause, never the people being imported.
    expect(server.output()).not.toContain("full.disk.");
    expect(server.output()).not.toMatch(stackLine);

    freeDisk(where.disk);
    await expect.poll(async () => (await importPage(admin, location)).finished, { timeout: 120_000 }).toBe(true);
    const { page } = await importPage(admin, location);
    expect(page).toMatch(new RegExp(`${ROWS.toLocaleString("en-US")} of ${ROWS.toLocaleString("en-US")} rows`));
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await saveTitle(server, cookie, "Written once space was back")).status).toBe(302);
    expect(await (await fetch(`${server.url}/profile/edit`, { headers: { cookie } })).text()).toContain(
      "Written once space was back",
    );
    expect(server.output()).not.toContain("Written on a full disk");
    expect((await scim("POST", { userName: "scim.disk@example.com" })).status).toBe(201);
    expect(await stop(server)).toEqual({ code: 0, signal: null });
  }, 300_000);
});
