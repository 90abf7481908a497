import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createScratchDatabase, POSTGRES_URL } from "../support/postgres";
import { startedProcesses } from "../support/process-suite";
import {
  SERVER_BUILT,
  type ServerProcess,
  signedInMember,
  startServer,
  stop,
  usernameIn,
} from "../support/server-process";
import { startTcpProxy } from "../support/tcp-proxy";

/**
 * An instance on PostgreSQL whose LISTEN connection is dropped without a word
 * (a NAT or firewall idle timeout: no reset, no close) keeps no stale card: it
 * notices within seconds, drops the pages it kept and listens again, so an
 * edit or a deactivation made through another instance shows on the next
 * request. On PostgreSQL only (the embedded database listens in-process).
 */
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";
/** Well above the heartbeat's limit (10 s), well below the minutes a dropped connection went unnoticed. */
const NOTICED_WITHIN_MS = 45_000;

const started = startedProcesses("the dropped-listener tests");
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function usernameOf(server: ServerProcess, cookie: string) {
  const html = await (await fetch(`${server.url}/profile/edit`, { headers: { cookie } })).text();
  return usernameIn(html);
}

/** An anonymous visitor's view of a card: the answers the server keeps and reuses. */
async function visit(server: ServerProcess, pathname: string) {
  const response = await fetch(`${server.url}${pathname}`, { headers: { "user-agent": BROWSER } });
  return { status: response.status, text: await response.text() };
}

describe.skipIf(!POSTGRES_URL || !SERVER_BUILT)("an instance whose LISTEN connection is silently dropped", () => {
  it("notices within seconds, drops the pages it kept, and shows the next edit and deactivation", async () => {
    const database = await createScratchDatabase();
    cleanups.push(database.drop);
    const direct = new URL(database.url);
    const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    cleanups.push(() => proxy.close());
    const throughProxy = new URL(database.url);
    throughProxy.host = `127.0.0.1:${proxy.port}`;

    const server = await startServer({ databaseUrl: throughProxy.toString() });
    started.push(server);
    const cookie = await signedInMember(server, "listener@example.com", { first: "Lis", last: "Tener" });
    const card = `/profile/${await usernameOf(server, cookie)}`;
    expect((await visit(server, card)).status).toBe(200);

    // Another instance's writes, straight to the database: a change, then its event.
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    cleanups.push(() => other.end());
    const changeThroughOtherInstance = async (change: string) => {
      const { rows } = await other.query<{ id: string }>(
        `update profiles set ${change} where email = 'listener@example.com' returning id`,
      );
      await other.query("select pg_notify('namecard_events', $1)", [
        JSON.stringify({ kind: "profile", id: rows[0]!.id }),
      ]);
    };

    expect(proxy.muteConnectionsThatSent("LISTEN namecard_events")).toBe(1);
    await changeThroughOtherInstance("title = 'Edited Elsewhere'");
    await expect
      .poll(async () => (await visit(server, card)).text.includes("Edited Elsewhere"), { timeout: NOTICED_WITHIN_MS })
      .toBe(true);
    expect(server.output()).toMatch(/\[realtime\] no heartbeat through the listener connection for \d+ s/);

    // Dropped again once it listens anew: the new connection is watched as well.
    await expect.poll(() => proxy.muteConnectionsThatSent("LISTEN namecard_events"), { timeout: 30_000 }).toBe(1);
    await changeThroughOtherInstance("deactivated_at = now()");
    await expect.poll(async () => (await visit(server, card)).status, { timeout: NOTICED_WITHIN_MS }).toBe(410);
    expect(await stop(server)).toEqual({ code: 0, signal: null });
  }, 180_000);
});
