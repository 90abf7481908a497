import fs from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { ON_POSTGRES, startedProcesses } from "../support/process-suite";
import {
  migratedDataDir,
  runScript,
  SERVER_BUILT,
  scratchDir,
  serverEnv,
  signedInMember,
  startServer,
  stop,
} from "../support/server-process";

/**
 * What the server keeps on disk (the embedded database and its write-ahead log,
 * the outbox, the secret, backups) holds tokens and password hashes: only the
 * server's user may read it, whatever umask the server was started with.
 */
const started = startedProcesses("the private data tests");

/** Every file and folder under `root` that its group or others may use, with its mode. */
function openToOthers(root: string): string[] {
  const open: string[] = [];
  const visit = (entry: string) => {
    const stat = fs.lstatSync(entry);
    if (stat.isSymbolicLink()) return;
    if (stat.mode & 0o077) open.push(`${path.relative(root, entry) || "."} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(root);
  return open;
}

describe.skipIf(ON_POSTGRES || !SERVER_BUILT)("data only the server's user can read", () => {
  it("keeps a new installation's database, outbox and backups to the server's user, started with umask 000", async () => {
    const dataDir = path.join(scratchDir(), "data");
    const server = await startServer({ dataDir, umask: 0o000 });
    started.push(server);
    // A sign-up writes sessions and tokens to the database's log and a mail with a link to the outbox.
    await signedInMember(server, "private@example.com");
    expect(fs.readdirSync(path.join(dataDir, "mail")).length).toBeGreaterThan(0);
    expect(openToOthers(dataDir)).toEqual([]);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);

    const archive = path.join(scratchDir("namecard-archive-"), "backup.ndjson.gz");
    const env = serverEnv({ port: server.port, dataDir });
    const backup = await runScript("scripts/backup.ts", [archive], env, { umask: 0o000 });
    expect(backup.code, backup.output).toBe(0);
    expect(fs.statSync(archive).mode & 0o777).toBe(0o600);
    // Sessions, pending tokens and rate-limit counters stay out of the archive; the accounts are in it.
    const tables = gunzipSync(fs.readFileSync(archive))
      .toString("utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { table?: string; rows?: unknown[] })
      .filter((line) => line.table && line.rows?.length)
      .map((line) => line.table);
    expect(tables).toEqual(expect.arrayContaining(["users", "accounts", "profiles"]));
    expect(tables).not.toEqual(expect.arrayContaining(["sessions"]));
    expect(tables.filter((table) => ["sessions", "verifications", "rate_limits"].includes(table!))).toEqual([]);
    expect(openToOthers(dataDir)).toEqual([]);
    expect(await stop(server)).toEqual({ code: 0, signal: null });
  }, 120_000);

  it("tightens an installation left open to others at start, and says so in one line", async () => {
    const dataDir = await migratedDataDir();
    fs.mkdirSync(path.join(dataDir, "mail"), { recursive: true });
    fs.writeFileSync(path.join(dataDir, "mail", "left-open.eml"), "a reset link");
    const loosen = (entry: string) => {
      const stat = fs.lstatSync(entry);
      fs.chmodSync(entry, stat.isDirectory() ? 0o777 : 0o666);
      if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) loosen(path.join(entry, name));
    };
    loosen(dataDir);
    expect(openToOthers(dataDir).length).toBeGreaterThan(100);

    const server = await startServer({ dataDir });
    started.push(server);
    const lines = server
      .output()
      .split("\n")
      .filter((line) => line.includes("were open to other users"));
    expect(lines).toHaveLength(1);
    expect(openToOthers(dataDir)).toEqual([]);
    // The owner keeps what it had: the server reads and writes its data.
    await signedInMember(server, "tightened@example.com");
    expect(await stop(server)).toEqual({ code: 0, signal: null });

    // The next start has nothing to say.
    const again = await startServer({ dataDir });
    started.push(again);
    expect(again.output()).not.toMatch(/were open to other users/);
    expect(await stop(again)).toEqual({ code: 0, signal: null });
  }, 120_000);
});
