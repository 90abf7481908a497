import http from "node:http";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { openPglite, openPostgres, rowsOf } from "~/.server/platform/db/client";
import { adminQuery, createScratchDatabase, endSessions, POSTGRES_URL } from "../support/postgres";
import { ON_POSTGRES, startedProcesses } from "../support/process-suite";
import {
  migratedDataDir,
  SERVER_BUILT,
  type ServerProcess,
  scratchDir,
  signedInMember,
  startServer,
  stop,
} from "../support/server-process";

/**
 * A visitor is shown their view as counted before the batch that stores it
 * commits. Whatever then happens to the server — killed outright while the
 * database holds the batch back, or stopped while the database refuses writes
 * — every view shown as counted is stored once it runs again.
 */
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";
const VIEWS = 30;

const started = startedProcesses("the counted-view tests");
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Installation = { dataDir: string; databaseUrl?: string; databaseName?: string };

async function installation(): Promise<Installation> {
  if (!ON_POSTGRES) return { dataDir: await migratedDataDir() };
  const database = await createScratchDatabase();
  cleanups.push(database.drop);
  return { dataDir: scratchDir(), databaseUrl: database.url, databaseName: database.name };
}

/** Each view comes from an address of its own, through a trusted local proxy. */
const start = (where: Installation) =>
  startServer({ dataDir: where.dataDir, databaseUrl: where.databaseUrl, env: { TRUST_PROXY: "loopback" } });

/**
 * A visitor's view of the card, on a connection of its own: the database work between views
 * can outlast the server's keep-alive, and a reused connection may then be closed under it.
 */
function view(server: ServerProcess, card: string, ip: string): Promise<{ status: number; html: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(
        `${server.url}${card}`,
        { agent: false, headers: { "user-agent": BROWSER, "x-forwarded-for": ip } },
        (response) => {
          let html = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => (html += chunk));
          response.on("end", () =>
            resolve({ status: response.statusCode ?? 0, html: html.replaceAll("<!-- -->", "") }),
          );
        },
      )
      .on("error", reject);
  });
}

/** Views answered as counted: each visitor sees one more than the last. */
async function countViews(server: ServerProcess, card: string, first: number) {
  for (let n = first; n < first + VIEWS; n++) {
    const { status, html } = await view(server, card, `10.77.${Math.floor(n / 200)}.${n % 200}`);
    expect(status).toBe(200);
    expect(Number(/data-testid="view-count">([\d,]+)</.exec(html)?.[1])).toBe(n + 1);
  }
}

/** The card's stored views and its count, read straight from the database. */
async function stored(where: Installation, email: string) {
  const handle = where.databaseUrl
    ? openPostgres(where.databaseUrl, 1)
    : await openPglite({ dataDir: path.join(where.dataDir, "db") });
  try {
    const rows = rowsOf(
      await handle.db.execute(sql`select p.view_count as "viewCount",
        (select count(*)::int from profile_views v where v.profile_id = p.id) as views
        from profiles p where p.email = ${email}`),
    );
    return rows[0] as { viewCount: number; views: number } | undefined;
  } finally {
    await handle.close();
  }
}

/** Waits until the running server has stored `count` views of the card (read through its own database). */
async function untilStored(server: ServerProcess, where: Installation, email: string, count: number) {
  if (where.databaseUrl) {
    await expect.poll(() => stored(where, email), { timeout: 60_000 }).toEqual({ viewCount: count, views: count });
    return;
  }
  // The embedded database belongs to the running server: stop it (a clean stop writes every view) to read it.
  expect(await stop(server)).toEqual({ code: 0, signal: null });
  expect(await stored(where, email)).toEqual({ viewCount: count, views: count });
}

describe.skipIf((ON_POSTGRES && !POSTGRES_URL) || !SERVER_BUILT)("views shown as counted", () => {
  it("are all stored after the server is killed outright while their batch waits", async () => {
    const where = await installation();
    let server = await start(where);
    started.push(server);
    const email = "counted.views@example.com";
    await signedInMember(server, email, { first: "Coun", last: "Ted" });
    const card = "/profile/coun.ted";

    // On PostgreSQL another session holds the card's row, so the batch cannot commit; the embedded
    // database has no other session, and the kill comes right after the last view is answered.
    let holder: pg.Client | undefined;
    if (where.databaseUrl) {
      holder = new pg.Client({ connectionString: where.databaseUrl });
      await holder.connect();
      cleanups.push(() => holder!.end());
      await holder.query("begin");
      await holder.query("select 1 from profiles where email = $1 for update", [email]);
    }
    await countViews(server, card, 0);
    await stop(server, "SIGKILL");
    await holder?.query("rollback");

    server = await start(where);
    started.push(server);
    await untilStored(server, where, email, VIEWS);
  }, 180_000);

  it.runIf(ON_POSTGRES)(
    "are all stored after a clean stop while the database refused writes",
    async () => {
      const where = await installation();
      let server = await start(where);
      started.push(server);
      const email = "kept.views@example.com";
      await signedInMember(server, email, { first: "Kep", last: "Ted" });
      const card = "/profile/kep.ted";
      expect((await view(server, card, "10.77.9.9")).status).toBe(200);

      await adminQuery(`alter database ${where.databaseName} set default_transaction_read_only = on`);
      await endSessions(where.databaseName!);
      // A request that meets a connection the database ended is answered 503 (try again); the same
      // visitor asks again until the pool has new connections, and is not counted twice.
      await expect.poll(async () => (await view(server, card, "10.77.9.9")).status, { timeout: 30_000 }).toBe(200);
      await countViews(server, card, 1);
      expect(await stop(server)).toEqual({ code: 0, signal: null });
      expect(server.output()).toMatch(
        /counted views could not be written .*: they are kept on disk and written at the next start/,
      );

      await adminQuery(`alter database ${where.databaseName} reset default_transaction_read_only`);
      server = await start(where);
      started.push(server);
      await untilStored(server, where, email, VIEWS + 1);
    },
    180_000,
  );
});
