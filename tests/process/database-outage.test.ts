import { afterEach, describe, expect, it } from "vitest";
import { adminQuery, createScratchDatabase, endSessions, POSTGRES_URL } from "../support/postgres";
import { privatePostgresAvailable, startPrivatePostgres } from "../support/private-postgres";
import { ON_POSTGRES, startedProcesses } from "../support/process-suite";
import { makeReadOnly, makeWritable } from "../support/read-only";
import {
  migratedDataDir,
  SERVER_BUILT,
  type ServerProcess,
  scratchDir,
  signedInMember,
  startServer,
} from "../support/server-process";
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

/** A server on a scratch PostgreSQL database that it reaches through a relay the test can cut or silence. */
async function serverBehindProxy() {
  const database = await createScratchDatabase();
  cleanups.push(database.drop);
  const target = new URL(database.url);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  cleanups.push(() => proxy.close());
  const viaProxy = new URL(database.url);
  viaProxy.port = String(proxy.port);
  const server = await startServer({ dataDir: scratchDir(), databaseUrl: viaProxy.toString() });
  started.push(server);
  return { server, proxy, database };
}

describe.skipIf(!ON_POSTGRES || !POSTGRES_URL || !SERVER_BUILT)("while PostgreSQL is unreachable", () => {
  it("answers 503 with a calm page, never 'not found' or 500, and recovers by itself", async () => {
    const { server, proxy } = await serverBehindProxy();
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

  it("answers a request within seconds when PostgreSQL goes silent, says so on /healthz, and recovers", async () => {
    const { server, proxy } = await serverBehindProxy();
    const cookie = await signedInMember(server, "si.lent@example.com", { first: "Si", last: "Lent" });
    const search = () =>
      fetch(`${server.url}/directory?q=silent`, { headers: { cookie }, signal: AbortSignal.timeout(90_000) });
    expect((await search()).status).toBe(200);

    proxy.silence();
    // Every connection the pool holds, and every new one, now waits for an answer that never comes.
    const began = performance.now();
    const answers = await Promise.all(Array.from({ length: 12 }, () => search()));
    const seconds = (performance.now() - began) / 1000;
    console.info(
      `[outage] 12 signed-in searches against a silent PostgreSQL all answered after ${seconds.toFixed(1)} s`,
    );
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(await answer.text()).toContain("Temporarily unavailable");
    }
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ ok: false, database: { ok: false, error: expect.any(String) } });
    expect(server.output()).toMatch(/\[db\] PostgreSQL did not answer in time: the connection is given up/);

    proxy.speak();
    await eventually(`${server.url}/healthz`, 200, undefined, 60_000);
    expect((await search()).status).toBe(200);
    expect(server.output()).not.toMatch(/^\s+at /m);
  }, 180_000);

  it("answers every kind of request 503 or as usual while PostgreSQL restarts under load, never 500", async () => {
    const { server, proxy, database } = await serverBehindProxy();
    const load = underLoad(
      server,
      await signedInMember(server, "re.start@example.com", { first: "Re", last: "Start" }),
    );

    // A restart as the app meets it: every session ended by the server (57P01), then nothing
    // accepts connections for a while, then the server is back.
    for (let round = 0; round < 2; round++) {
      await endSessions(database.name);
      await proxy.cut();
      await load.untilEveryKindMetTheOutage();
      await proxy.restore();
      await eventually(`${server.url}/healthz`, 200, undefined, 60_000);
    }
    await load.end();
  }, 240_000);

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

/** One request of each kind the server answers: kept cards, files, pages, data, forms, the auth API, health. */
function requestsOfEveryKind(server: ServerProcess, member: string): [string, () => Promise<Response>][] {
  const card = "/profile/re.start";
  const edit = () => {
    const form = new FormData();
    for (const [name, value] of Object.entries({
      firstName: "Re",
      lastName: "Start",
      email: "re.start@example.com",
      username: "re.start",
      title: "Restarted",
      phone: "",
      bio: "",
      linkedinUrl: "",
      companyBrandId: "",
    }))
      form.set(name, value);
    return form;
  };
  return [
    ["card", () => fetch(`${server.url}${card}`)],
    ["card for a phone", () => fetch(`${server.url}${card}`, { headers: { "user-agent": "Mobile" } })],
    ["contact file", () => fetch(`${server.url}${card}/contact.vcf`)],
    ["QR code", () => fetch(`${server.url}${card}/qr.png`)],
    ["QR page", () => fetch(`${server.url}/qr/re.start`)],
    ["signed-in page", () => fetch(`${server.url}/directory?q=re`, { headers: { cookie: member } })],
    ["signed-in data", () => fetch(`${server.url}/directory.data?q=re`, { headers: { cookie: member } })],
    ["export", () => fetch(`${server.url}/leads/export.csv`, { headers: { cookie: member } })],
    [
      "form",
      () =>
        fetch(`${server.url}/profile/edit`, {
          method: "POST",
          headers: { cookie: member, origin: server.url },
          body: edit(),
          redirect: "manual",
        }),
    ],
    ["session", () => fetch(`${server.url}/api/auth/get-session`, { headers: { cookie: member } })],
    [
      "sign-in",
      () =>
        fetch(`${server.url}/api/auth/sign-in/email`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: `http://localhost:${server.port}` },
          body: JSON.stringify({ email: "re.start@example.com", password: "wrong password" }),
        }),
    ],
    ["health", () => fetch(`${server.url}/healthz`)],
  ];
}

/**
 * Every kind of request, asked over and over until `end`, which then requires that none
 * was answered 500 (or 503 without Retry-After), that each met the outage at least once,
 * and that the server printed no stack trace.
 */
function underLoad(server: ServerProcess, member: string) {
  const kinds = requestsOfEveryKind(server, member);
  const seen = new Map<string, Set<number>>();
  const faults: string[] = [];
  let going = true;
  const loops = kinds.map(async ([kind, ask]) => {
    while (going) {
      const answer = await ask();
      const body = await answer.text();
      if (!seen.has(kind)) seen.set(kind, new Set());
      seen.get(kind)?.add(answer.status);
      if (answer.status >= 500 && (answer.status !== 503 || !answer.headers.get("retry-after"))) {
        faults.push(`${kind}: ${answer.status} ${body.slice(0, 200)}`);
      }
    }
  });
  return {
    /** Holds the outage until every kind of request has met it. */
    untilEveryKindMetTheOutage: () =>
      expect
        .poll(() => kinds.filter(([kind]) => !seen.get(kind)?.has(503)).map(([kind]) => kind), { timeout: 30_000 })
        .toEqual([]),
    async end() {
      going = false;
      await Promise.all(loops);
      expect(faults).toEqual([]);
      for (const [kind] of kinds) expect([...(seen.get(kind) ?? [])], kind).toContain(503);
      expect(server.output()).not.toMatch(/^\s+at /m);
    },
  };
}

describe.skipIf(!ON_POSTGRES || !SERVER_BUILT || !privatePostgresAvailable())(
  "while its own PostgreSQL restarts",
  () => {
    it("answers every kind of request 503 or as usual while the server is stopped and started under load, never 500", async () => {
      const postgres = await startPrivatePostgres();
      cleanups.push(async () => postgres.close());
      const server = await startServer({ dataDir: scratchDir(), databaseUrl: postgres.url });
      started.push(server);
      const load = underLoad(
        server,
        await signedInMember(server, "re.start@example.com", { first: "Re", last: "Start" }),
      );

      // PostgreSQL's own fast shutdown (every session ended, then connections refused), held until every kind
      // of request has met it, then started again.
      postgres.stop();
      await load.untilEveryKindMetTheOutage();
      postgres.start();
      await eventually(`${server.url}/healthz`, 200, undefined, 60_000);
      expect((await fetch(`${server.url}/profile/re.start`)).status).toBe(200);
      await load.end();
    }, 240_000);
  },
);
