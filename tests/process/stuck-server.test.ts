import path from "node:path";
import { describe, expect, it } from "vitest";
import { ON_POSTGRES, startedProcesses } from "../support/process-suite";
import { migratedDataDir, SERVER_BUILT, signedInMember, startServer, stop } from "../support/server-process";

/**
 * A server whose main thread is stuck answers nothing and cannot even see
 * SIGTERM; one whose embedded database's thread is stuck (PostgreSQL spinning
 * after a fault) answers nothing that reads the database. Its watchdog ends it
 * with one line, so that a supervisor starts it again on the same data.
 */
const started = startedProcesses("the stuck-server tests");

const SPIN_ON_SIGNAL = path.resolve("tests/support/spin-on-signal.mjs");
const SPIN_DATABASE_ON_SIGNAL = path.resolve("tests/support/spin-database-on-signal.mjs");
const SLOW_PAGES_MODULE = path.resolve("tests/support/slow-pages-module.mjs");

describe.skipIf(ON_POSTGRES || !SERVER_BUILT)("a server whose main thread is stuck", () => {
  it("ends itself with one line after WATCHDOG_SECONDS, so that its supervisor can start it again", async () => {
    const server = await startServer({
      dataDir: await migratedDataDir(),
      env: { WATCHDOG_SECONDS: "2" },
      nodeArgs: ["--import", SPIN_ON_SIGNAL],
    });
    started.push(server);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

    server.child.kill("SIGUSR2");
    // Stuck once it no longer answers; then it cannot act on a stop signal either.
    await expect
      .poll(() =>
        fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(500) }).then(
          () => "answers",
          () => "stuck",
        ),
      )
      .toBe("stuck");
    server.child.kill("SIGTERM");
    expect(await server.exited).toEqual({ code: null, signal: "SIGKILL" });
    const lines = server.output().trim().split("\n");
    expect(lines.at(-1)).toMatch(
      /^\[server\] stopped answering for \d+ s \(its main thread is stuck\): ending the process so that its supervisor starts it again$/,
    );
  }, 120_000);

  it("ends itself with one line when its embedded database's thread is stuck", async () => {
    const server = await startServer({
      dataDir: await migratedDataDir(),
      env: { WATCHDOG_SECONDS: "4" },
      nodeArgs: ["--import", SPIN_DATABASE_ON_SIGNAL],
    });
    started.push(server);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

    server.child.kill("SIGUSR2");
    expect(await server.exited).toEqual({ code: null, signal: "SIGKILL" });
    const lines = server.output().trim().split("\n");
    expect(lines.at(-1)).toMatch(
      /^\[server\] stopped answering for \d+ s \(its database thread is stuck\): ending the process so that its supervisor starts it again$/,
    );
  }, 120_000);

  it("ends itself with one line when its database's thread sticks under load, and starts again on the same data with every answered change", async () => {
    const dataDir = await migratedDataDir();
    const server = await startServer({
      dataDir,
      env: { WATCHDOG_SECONDS: "4" },
      nodeArgs: ["--import", SPIN_DATABASE_ON_SIGNAL],
    });
    started.push(server);
    const cookie = await signedInMember(server, "stuck.load@example.com", { first: "Stuck", last: "Load" });
    let lastSaved = 0;
    let loading = true;
    const ask = async (pathname: string, init: RequestInit = {}) => {
      const response = await fetch(`${server.url}${pathname}`, { ...init, headers: { cookie, ...init.headers } });
      await response.arrayBuffer();
      return response;
    };
    // Readers of pages and cards, and one member saving their title over and over.
    const readers = Array.from({ length: 8 }, (_, n) =>
      (async () => {
        while (loading) await ask(n % 2 ? "/directory?q=stuck" : "/profile/stuck.load").catch(() => undefined);
      })(),
    );
    const writer = (async () => {
      for (let round = 1; loading; round++) {
        const form = new URLSearchParams({
          title: `Round ${round}`,
          ...Object.fromEntries(
            ["firstName", "lastName", "email", "username", "phone", "bio", "linkedinUrl", "companyBrandId"].map(
              (name) => [
                name,
                { firstName: "Stuck", lastName: "Load", email: "stuck.load@example.com", username: "stuck.load" }[
                  name
                ] ?? "",
              ],
            ),
          ),
        });
        const saved = await ask("/profile/edit", {
          method: "POST",
          headers: { origin: server.url, "content-type": "application/x-www-form-urlencoded" },
          body: form,
          redirect: "manual",
        }).catch(() => undefined);
        if (saved?.status === 302) lastSaved = round;
      }
    })();
    await expect.poll(() => lastSaved, { timeout: 30_000 }).toBeGreaterThan(2);

    server.child.kill("SIGUSR2");
    expect(await server.exited).toEqual({ code: null, signal: "SIGKILL" });
    loading = false;
    await Promise.all([...readers, writer]);
    const lines = server.output().trim().split("\n");
    expect(lines.at(-1)).toMatch(
      /^\[server\] stopped answering for \d+ s \(its database thread is stuck\): ending the process so that its supervisor starts it again$/,
    );

    // As its supervisor would: started again on the same data, with the last answered save.
    const again = await startServer({ dataDir });
    started.push(again);
    expect((await fetch(`${again.url}/healthz`)).status).toBe(200);
    const edit = await (await fetch(`${again.url}/profile/edit`, { headers: { cookie } })).text();
    const title = Number(/value="Round (\d+)"/.exec(edit)?.[1]);
    expect(title).toBeGreaterThanOrEqual(lastSaved);
    expect(await stop(again)).toEqual({ code: 0, signal: null });
  }, 180_000);

  it("answers /healthz 200 when one long statement holds the database's thread past the check's 3 s", async () => {
    const server = await startServer({
      dataDir: await migratedDataDir(),
      nodeArgs: ["--import", SPIN_DATABASE_ON_SIGNAL],
    });
    started.push(server);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

    server.child.kill("SIGUSR1");
    await server.waitForOutput(/holding the database thread for 4 s/, 30_000);
    const health = await fetch(`${server.url}/healthz`);
    expect(await health.json()).toMatchObject({ ok: true, database: { ok: true } });
    expect(health.status).toBe(200);
    expect(await stop(server)).toEqual({ code: 0, signal: null });
  }, 120_000);

  it("is not taken for stuck while it starts, however long loading the pages takes", async () => {
    // Loading the pages' module holds the thread longer than the watchdog's limit, as on a busy machine.
    const server = await startServer({
      dataDir: await migratedDataDir(),
      env: { WATCHDOG_SECONDS: "2" },
      nodeArgs: ["--import", SLOW_PAGES_MODULE],
    });
    started.push(server);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    // The hold did happen, before the server listened.
    expect(server.output()).toMatch(/loading the pages holds the thread for 3 s[\s\S]*Namecard is listening/);
    expect(server.output()).not.toContain("stopped answering");
    expect(await stop(server)).toEqual({ code: 0, signal: null });
  }, 120_000);

  it("is left alone while it answers, however long it runs", async () => {
    const server = await startServer({ dataDir: await migratedDataDir(), env: { WATCHDOG_SECONDS: "2" } });
    started.push(server);
    // Longer than the watchdog's limit, with the main thread free throughout.
    const until = Date.now() + 4_000;
    while (Date.now() < until) {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(server.output()).not.toContain("stopped answering");
    expect(await stop(server)).toEqual({ code: 0, signal: null });
  }, 120_000);
});
