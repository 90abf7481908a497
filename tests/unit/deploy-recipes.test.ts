import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { hasSystemdAnalyze } from "../support/checkers";

/**
 * The systemd unit of deploy/ as systemd itself reads it: valid, confined, and in step with
 * what the server does (where it keeps its data, how long it takes to stop).
 */

const UNIT = fs.readFileSync("deploy/systemd/namecard.service", "utf8");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "namecard-unit-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The unit with the Node that runs these tests standing in for /usr/bin/node, which systemd checks exists. */
function unitFile() {
  const file = path.join(dir, "namecard.service");
  fs.writeFileSync(file, UNIT.replace("ExecStart=/usr/bin/node ", `ExecStart=${process.execPath} `));
  return file;
}

const settings = (key: string) =>
  [...UNIT.matchAll(new RegExp(`^${key}=(.*)$`, "gm"))].map((match) => match[1]!.trim());

describe.skipIf(!hasSystemdAnalyze())("the systemd unit", () => {
  it("is a unit systemd accepts as it is", () => {
    const result = spawnSync("systemd-analyze", ["verify", unitFile()], { encoding: "utf8" });
    expect(result.stderr + result.stdout).toBe("");
    expect(result.status).toBe(0);
  });

  it("confines the server: systemd rates its exposure OK", () => {
    const result = spawnSync("systemd-analyze", ["security", "--offline=true", unitFile()], { encoding: "utf8" });
    const level = /Overall exposure level for namecard\.service: ([0-9.]+) (\w+)/.exec(result.stdout);
    expect(level, result.stdout + result.stderr).not.toBeNull();
    expect(Number(level![1])).toBeLessThan(2);
    expect(level![2]).toBe("OK");
  });

  it("keeps the data in its state directory, private to its user, and waits for a graceful stop", () => {
    expect(settings("Environment")).toContain(`DATA_DIR=/var/lib/${settings("StateDirectory")[0]}`);
    expect(settings("StateDirectoryMode")).toEqual(["0700"]);
    expect(settings("UMask")).toEqual(["0077"]);
    expect(settings("User")).toEqual(["namecard"]);
    // Requests in flight get 10 seconds after SIGTERM, then the database closes.
    expect(settings("KillSignal")).toEqual(["SIGTERM"]);
    expect(Number.parseInt(settings("TimeoutStopSec")[0]!, 10)).toBeGreaterThanOrEqual(20);
    expect(settings("Restart")).toEqual(["on-failure"]);
    // V8 writes the code it compiles: a unit that forbade it would never start.
    expect(settings("MemoryDenyWriteExecute")).toEqual([]);
  });
});
