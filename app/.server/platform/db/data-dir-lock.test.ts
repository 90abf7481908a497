import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DataDirectoryInUseError, lockDataDirectory } from "./data-dir-lock";

function databaseDir() {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), "namecard-lock-")), "db");
}

function writeLock(dir: string, holder: Record<string, unknown>) {
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  fs.writeFileSync(
    `${dir}.lock`,
    JSON.stringify({
      host: os.hostname(),
      command: "node server.js",
      since: "2026-01-01T00:00:00.000Z",
      startTicks: null,
      bootId: null,
      ...holder,
    }),
  );
}

/** The PID of a process that has certainly ended. */
function deadPid() {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

describe("one owner per embedded database", () => {
  it("refuses a second opener with one line naming the holder and what to do", () => {
    const dir = databaseDir();
    const lock = lockDataDirectory(dir);
    expect(() => lockDataDirectory(dir)).toThrow(DataDirectoryInUseError);
    try {
      lockDataDirectory(dir);
    } catch (error) {
      const message = (error as Error).message;
      expect(message).not.toContain("\n");
      expect(message).toContain(`in use by process ${process.pid}`);
      expect(message).toMatch(/stop that process first, or set DATA_DIR to another folder/);
    }
    lock.release();
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);
    lockDataDirectory(dir).release();
  });

  it("takes over a lock whose process has ended", () => {
    const dir = databaseDir();
    writeLock(dir, { pid: deadPid() });
    const lock = lockDataDirectory(dir);
    expect(JSON.parse(fs.readFileSync(`${dir}.lock`, "utf8")).pid).toBe(process.pid);
    lock.release();
  });

  it("takes over a lock whose PID now belongs to another process (a different start time)", () => {
    const dir = databaseDir();
    writeLock(dir, { pid: process.pid, startTicks: 1 });
    const lock = lockDataDirectory(dir);
    expect(JSON.parse(fs.readFileSync(`${dir}.lock`, "utf8")).startTicks).not.toBe(1);
    lock.release();
  });

  it("never judges a lock held on another machine: it names the host and the file to delete", () => {
    const dir = databaseDir();
    writeLock(dir, { pid: 4242, host: "other-host" });
    expect(() => lockDataDirectory(dir)).toThrow(
      /process 4242 on host other-host .*If it no longer runs there, delete/,
    );
  });

  it("releases only its own lock", () => {
    const dir = databaseDir();
    const lock = lockDataDirectory(dir);
    writeLock(dir, { pid: 4242, host: "other-host" });
    lock.release();
    expect(fs.existsSync(`${dir}.lock`)).toBe(true);
  });
});
