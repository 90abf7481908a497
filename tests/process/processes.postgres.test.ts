import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { db } from "~/.server/platform/db/client";
import { profiles } from "~/.server/platform/db/schema";
import { present } from "../support/present";
import { startedProcesses } from "../support/process-suite";
import { freePort, launch, SERVER_BUILT, scratchDir, serverEnv, stop } from "../support/server-process";
import { storedViews } from "../support/stored-views";

/**
 * PROCESSES: several server processes on one port under one supervising
 * process (server/processes.js), on PostgreSQL (this file runs on PostgreSQL
 * only).
 */
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";
const started = startedProcesses("the several-process tests");

/** The supervisor's worker processes, by PID (its children, as Linux lists them). */
function workersOf(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function listeningLines(output: string) {
  return output.match(/Namecard is listening/g)?.length ?? 0;
}

describe.skipIf(!SERVER_BUILT)("several server processes on one port", () => {
  it("serve one port from two processes, start again one that is killed without losing the views it counted, and all stop cleanly on SIGTERM", async () => {
    const port = await freePort();
    const dataDir = scratchDir();
    const server = launch(process.execPath, ["server.js"], {
      ...serverEnv({ port, dataDir, databaseUrl: process.env.NAMECARD_FILE_DATABASE_URL }),
      PROCESSES: "2",
      TRUST_PROXY: "loopback",
    });
    started.push(server);
    await server.waitForOutput(/starting 2 processes on one port/);
    await expect.poll(() => listeningLines(server.output()), { timeout: 90_000 }).toBe(2);
    const pid = present(server.child.pid, "the supervisor's PID");
    expect(workersOf(pid)).toHaveLength(2);

    const [inserted] = await db
      .insert(profiles)
      .values({ email: "two@example.org", firstName: "Two", lastName: "Procs", username: "two.processes" })
      .returning();
    const card = present(inserted, "the card");
    const visit = (ip: string) =>
      fetch(`http://127.0.0.1:${port}/profile/two.processes`, {
        headers: { "user-agent": BROWSER, "x-forwarded-for": ip },
      });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => visit(`192.0.2.${i + 1}`)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));

    // Both processes killed outright at once: each is started again in its slot and writes what it had counted.
    for (const worker of workersOf(pid)) process.kill(worker, "SIGKILL");
    await server.waitForOutput(/process 1 ended \(SIGKILL\); starting it again/);
    await server.waitForOutput(/process 2 ended \(SIGKILL\); starting it again/);
    await expect.poll(() => listeningLines(server.output()), { timeout: 90_000 }).toBe(4);
    expect((await visit("192.0.2.100")).status).toBe(200);
    await expect.poll(() => storedViews(card.id), { timeout: 15_000 }).toEqual({ viewCount: 21, views: 21 });

    // A service manager stops the whole group: every process gets SIGTERM, and each also gets the
    // supervisor's copy. Each stops once, gracefully.
    const workers = workersOf(pid);
    expect(workers).toHaveLength(2);
    for (const worker of workers) process.kill(worker, "SIGTERM");
    expect(await stop(server, "SIGTERM")).toEqual({ code: 0, signal: null });
    expect(server.output()).not.toContain("again: stopping now");
    expect(server.output().match(/\[server\] stopped/g)).toHaveLength(2);
    expect(server.output()).toContain("[server] every process has stopped");
    for (const worker of workers) expect(() => process.kill(worker, 0)).toThrow();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 240_000);

  it("refuses more than one process on the embedded database, and a PROCESSES that is not a number, each with one line", async () => {
    const port = await freePort();
    const dataDir = scratchDir();
    for (const [value, message] of [
      ["2", "[config] PROCESSES=2 needs DATABASE_URL: the embedded database can be opened by one process only."],
      ["many", '[config] PROCESSES must be a whole number from 1 to 99, or auto (one per core); it is "many".'],
    ] as const) {
      const refused = launch(process.execPath, ["server.js"], {
        ...serverEnv({ port, dataDir, databaseUrl: value === "2" ? "" : process.env.NAMECARD_FILE_DATABASE_URL }),
        PROCESSES: value,
      });
      started.push(refused);
      expect(await refused.exited).toEqual({ code: 1, signal: null });
      expect(refused.output().trim().split("\n")).toHaveLength(1);
      expect(refused.output()).toContain(message);
    }
    // Nothing was opened or written.
    expect(fs.readdirSync(dataDir)).toEqual([]);

    // A fault every process meets at start stops them all, once, with its line: no process is started again and again.
    const unsigned = launch(process.execPath, ["server.js"], {
      ...serverEnv({ port, dataDir, databaseUrl: process.env.NAMECARD_FILE_DATABASE_URL }),
      AUTH_SECRET: "",
      PROCESSES: "2",
    });
    started.push(unsigned);
    expect(await unsigned.exited).toEqual({ code: 1, signal: null });
    expect(unsigned.output()).toContain("[config] AUTH_SECRET");
    expect(unsigned.output()).toMatch(/process [12] could not start/);
    expect(unsigned.output()).not.toContain("starting it again");
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
