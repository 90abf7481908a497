import { afterEach, describe, expect, it } from "vitest";
import { adminQuery, createScratchDatabase, endSessions, POSTGRES_URL } from "../support/postgres";
import { ON_POSTGRES, startedProcesses } from "../support/process-suite";
import { makeReadOnly, makeWritable } from "../support/read-only";
import { migratedDataDir, SERVER_BUILT, scratchDir, signedInMember, startServer } from "../support/server-process";
import { startTcpProxy } from "../support/tcp-proxy";

const started = startedProcesses("the outage tests");
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/**
 * Asks until the answer has the wanted status (and its body says `saying`):
 * recovery takes as long as reconnecting does, and a fault shows its lasting
 * cause only once the connections it cut have been replaced.
 */
async function eventually(url: string, status: number, saying?: RegExp, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(url).catch(() => null);
    const body = response ? await response.text() : "";
    if (response?.status === status && (!saying || saying.test(body))) return body;
    if (Date.now() > until) throw new Error(`${url} still answers ${response?.status}: ${body}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.skipIf(!ON_POSTGRES || !POSTGRES_URL || !SERVER_BUILT)("while PostgreSQL is unreachable", () => {
  it("answers 503 with a calm page, never 'not found' or 500, and recovers by itself", async () => {
    const database = await createScratchDatabase();
    cleanups.push(database.drop);
    const target = new URL(database.url);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    cleanups.push(() => proxy.close());
    const viaProxy = new URL(database.url);
    viaProxy.port = String(proxy.port);
    const server = await startServer({ dataDir: scratchDir(), databaseUrl: viaProxy.toString() });
    started.push(server);
    const cookie = await signedInMember(server, "out.age@example.com", { first: "Out", last: "Age" });
    const card = `${server.url}/profile/out.age`;
    expect((await fetch(card)).status).toBe(200);

    await proxy.cut();

    // The card kept in memory may still be answered in the moment before the server hears that its
    // connections are gone; from then on nothing is answered from memory, and nothing but 503.
    await expect.poll(async () => (await fetch(card)).status, { timeout: 10_000 }).not.toBe(200);
    const page = await fetch(card);
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toMatch(/^\d+$/);
    const html = await page.text();
    expect(html).toContain("Temporarily unavailable");
    expect(html).not.toContain("Profile not found");
    expect(html).toMatch(/<link rel="stylesheet" href="\/assets\//);

    const signedIn = await fetch(`${server.url}/directory`, { headers: { cookie } });
    expect(signedIn.status).toBe(503);
    expect(await signedIn.text()).toContain("Temporarily unavailable");
    expect((await fetch(`${card}/contact.vcf`)).status).toBe(503);

    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ ok: false, database: { ok: false } });

    await proxy.restore();
    await eventually(`${server.url}/healthz`, 200);
    expect((await fetch(card)).status).toBe(200);
    expect(server.output()).not.toMatch(/^\s+at /m);
  }, 120_000);

  it("reports a database that reads but cannot write, until it can again", async () => {
    const database = await createScratchDatabase();
    cleanups.push(database.drop);
    const server = await startServer({ dataDir: scratchDir(), databaseUrl: database.url });
    started.push(server);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

    await adminQuery(`alter database ${database.name} set default_transaction_read_only = on`);
    await endSessions(database.name);
    // The sessions just ended answer "terminating connection" first; then the new ones are read-only.
    const body = JSON.parse(await eventually(`${server.url}/healthz`, 503, /read-only/));
    expect(body).toMatchObject({ ok: false, database: { ok: false, error: expect.stringMatching(/read-only/) } });

    await adminQuery(`alter database ${database.name} reset default_transaction_read_only`);
    await endSessions(database.name);
    await eventually(`${server.url}/healthz`, 200);
  }, 120_000);
});

describe.skipIf(ON_POSTGRES || !SERVER_BUILT)("when the embedded database's folder cannot be written", () => {
  it("reports it on /healthz, and recovers by itself", async () => {
    const server = await startServer({ dataDir: await migratedDataDir() });
    started.push(server);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    makeReadOnly(server.dataDir);
    try {
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ ok: false, database: { ok: true }, dataDirectory: { ok: false } });
    } finally {
      makeWritable(server.dataDir);
    }
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  }, 120_000);
});
