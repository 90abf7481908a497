import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { hasStrace } from "../support/checkers";
import { ON_POSTGRES, startedProcesses } from "../support/process-suite";
import {
  freePort,
  launch,
  migratedDataDir,
  SERVER_BUILT,
  type ServerProcess,
  scratchDir,
  serverEnv,
  signedInMember,
} from "../support/server-process";

/**
 * An edit that was answered survives a power cut only if its commit reached
 * the disk before the answer. The embedded server runs under `strace`, which
 * records every `fsync`/`fdatasync` with its time and file: each answered edit
 * must have synced the database's write-ahead log while it was being answered.
 */
const started = startedProcesses("the durable commit tests");

const EDITS = 6;

type Sync = { at: number; file: string };

/** The sync calls in an `strace -ttt -y` log: epoch time in ms and the file synced. */
function syncCalls(trace: string): Sync[] {
  const calls: Sync[] = [];
  for (const line of trace.split("\n")) {
    const match = /^\d+\s+(\d+\.\d+)\s+f(?:data)?sync\(\d+<([^>]*)>\)\s+=\s+0/.exec(line);
    if (match) calls.push({ at: Number(match[1]) * 1000, file: match[2]! });
  }
  return calls;
}

function profileForm(title: string) {
  const form = new FormData();
  const fields = { firstName: "Dura", lastName: "Ble", email: "durable@example.com", username: "dura.ble" };
  for (const [name, value] of Object.entries({ ...fields, title, phone: "", bio: "", linkedinUrl: "" })) {
    form.set(name, value);
  }
  return form;
}

describe.skipIf(ON_POSTGRES || !SERVER_BUILT)("commits that survive a power cut", () => {
  it.runIf(hasStrace())(
    "syncs the embedded database's log to disk before an edit is answered",
    async () => {
      const dataDir = await migratedDataDir();
      const port = await freePort();
      const traceFile = path.join(scratchDir("namecard-trace-"), "sync.trace");
      const traced = launch(
        "strace",
        ["-f", "-ttt", "-y", "-e", "trace=fsync,fdatasync", "-o", traceFile, process.execPath, "server.js"],
        serverEnv({ port, dataDir }),
      );
      started.push(traced);
      await traced.waitForOutput(/Namecard is listening/, 120_000);
      // Ending strace would leave the server running untraced: the server itself is stopped.
      const serverPid = Number(
        fs.readFileSync(`/proc/${traced.child.pid}/task/${traced.child.pid}/children`, "utf8").split(" ")[0],
      );
      onTestFinished(async () => {
        try {
          process.kill(serverPid, "SIGKILL");
        } catch {
          // Already gone.
        }
        await traced.exited;
      });
      const server: ServerProcess = { ...traced, port, url: `http://127.0.0.1:${port}`, dataDir };
      const cookie = await signedInMember(server, "durable@example.com", { first: "Dura", last: "Ble" });

      const answered: { from: number; to: number }[] = [];
      for (let edit = 1; edit <= EDITS; edit++) {
        const from = Date.now();
        const response = await fetch(`${server.url}/profile/edit`, {
          method: "POST",
          headers: { cookie, origin: server.url },
          body: profileForm(`Durable edit ${edit}`),
          redirect: "manual",
        });
        await response.arrayBuffer();
        expect(response.status, `edit ${edit}`).toBe(302);
        answered.push({ from, to: Date.now() });
      }

      // strace writes its log as calls happen; wait until the last edit's sync is in it.
      const walSyncs = () => syncCalls(fs.readFileSync(traceFile, "utf8")).filter((call) => /pg_wal/.test(call.file));
      await expect
        .poll(() => walSyncs().some((call) => call.at >= answered.at(-1)!.from), { timeout: 30_000 })
        .toBe(true);
      const syncs = walSyncs();
      for (const [index, window] of answered.entries()) {
        // A millisecond either side: strace's clock and this one round differently.
        const inWindow = syncs.filter((call) => call.at >= window.from - 1 && call.at <= window.to + 1);
        expect(inWindow.length, `edit ${index + 1} was answered without syncing the log`).toBeGreaterThan(0);
      }
    },
    180_000,
  );
});
