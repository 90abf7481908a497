import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { probeDirectory } from "~/.server/platform/monitor";

/** Runs `code` in a new Node process (TypeScript through tsx) and resolves with its exit code and output. */
function runScript(code: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(path.resolve("node_modules/.bin/tsx"), ["-e", code], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.once("exit", (exitCode) => resolve({ code: exitCode, output }));
  });
}

describe("the server's monitoring thread", () => {
  it("probes a directory off this thread: a synced write that leaves nothing behind, and a full disk refused", async () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), "namecard-probe-"));
    try {
      await probeDirectory(directory, 0);
      expect(fs.readdirSync(directory)).toEqual([]);
      await expect(probeDirectory(directory, Number.MAX_SAFE_INTEGER)).rejects.toThrow(/the disk is full/);
      await expect(probeDirectory(path.join(directory, "gone"), 0)).rejects.toThrow(/ENOENT/);
    } finally {
      fs.rmSync(directory, { recursive: true, force: true });
    }
  });

  it("keeps a process alive while a probe waits for its answer, and never after", async () => {
    const monitor = path.resolve("app/.server/platform/monitor.ts");
    const { code, output } = await runScript(
      `import { probeDirectory } from ${JSON.stringify(monitor)}; probeDirectory(${JSON.stringify(os.tmpdir())}, 0).then(() => console.log("probed"));`,
    );
    // Held too little, the process ends before the answer; held after it, it waits for the thread for ever.
    expect({ code, output: output.trim() }).toEqual({ code: 0, output: "probed" });
  }, 60_000);
});
