import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./server-process";

/**
 * A PostgreSQL server of the test's own (Debian's binaries, its own data
 * folder and port), which the test may stop and start at will without
 * touching the server the other tests share. It runs as the `postgres` user
 * (PostgreSQL refuses to run as root); where there is neither such a user nor
 * the binaries, `available` is false and the caller skips, saying so.
 */
const BIN = "/usr/lib/postgresql/15/bin";

function asPostgres(command: string, args: string[]) {
  const root = process.getuid?.() === 0;
  return root
    ? execFileSync("runuser", ["-u", "postgres", "--", command, ...args], { stdio: "pipe" })
    : execFileSync(command, args, { stdio: "pipe" });
}

export function privatePostgresAvailable(): boolean {
  if (!fs.existsSync(path.join(BIN, "pg_ctl"))) return false;
  if (process.getuid?.() !== 0) return false;
  return spawnSync("id", ["postgres"]).status === 0;
}

export async function startPrivatePostgres() {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "namecard-private-pg-"));
  const data = path.join(folder, "data");
  fs.chmodSync(folder, 0o777);
  const port = await freePort();
  const password = "private";
  fs.writeFileSync(path.join(folder, "password"), password);
  // Read by initdb as the postgres user, whatever umask this process runs with (the app's makes files private).
  fs.chmodSync(path.join(folder, "password"), 0o644);
  asPostgres(path.join(BIN, "initdb"), [
    "-D",
    data,
    "-U",
    "namecard",
    "--auth-local=trust",
    "--auth-host=scram-sha-256",
    `--pwfile=${path.join(folder, "password")}`,
  ]);
  const options = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const pgCtl = (action: "start" | "stop" | "restart", extra: string[] = []) =>
    asPostgres(path.join(BIN, "pg_ctl"), [
      "-D",
      data,
      "-l",
      path.join(folder, "log"),
      "-o",
      options,
      "-w",
      ...extra,
      action,
    ]);
  pgCtl("start");
  asPostgres(path.join(BIN, "createdb"), ["-h", folder, "-p", String(port), "-U", "namecard", "namecard"]);
  return {
    url: `postgresql://namecard:${password}@127.0.0.1:${port}/namecard`,
    /** A restart as an operator or an upgrade does it: sessions ended, then connections refused until it is back. */
    restart: () => pgCtl("restart", ["-m", "fast"]),
    stop: () => pgCtl("stop", ["-m", "fast"]),
    start: () => pgCtl("start"),
    close: () => {
      try {
        pgCtl("stop", ["-m", "immediate"]);
      } catch {
        // Already stopped.
      }
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
