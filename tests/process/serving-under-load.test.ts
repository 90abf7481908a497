import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPglite } from "../../app/.server/platform/db/client";
import { ON_POSTGRES } from "../support/process-suite";
import {
  migratedDataDir,
  SERVER_BUILT,
  type ServerProcess,
  signedInMember,
  startServer,
  stop,
} from "../support/server-process";

/**
 * A room full of phones downloading codes must not stop the server from
 * answering anyone else: codes are encoded off the main thread, once per card.
 */

const CARDS = 40;
if (!SERVER_BUILT) console.warn("SKIPPED: the load tests need `npm run build` first");
let server: ServerProcess | undefined;

beforeAll(async () => {
  if (ON_POSTGRES || !SERVER_BUILT) return;
  const dataDir = await migratedDataDir();
  const handle = await openPglite({ dataDir: path.join(dataDir, "db") });
  if (!("pglite" in handle.raw)) throw new Error("expected the embedded database");
  await handle.raw.pglite.exec(`
    insert into profiles (email, first_name, last_name, username, bio)
    select 'load' || n || '@example.org', 'Load', 'Person ' || n, 'load.person.' || n,
      repeat('A long biography. ', 100)
    from generate_series(1, ${CARDS}) as n;
    insert into site_settings (id, terms_of_service, privacy_policy)
    values (1, repeat('Terms long enough to make a large page. ', 4000), repeat('A long privacy policy. ', 7000))
    on conflict (id) do update set terms_of_service = excluded.terms_of_service, privacy_policy = excluded.privacy_policy`);
  await handle.close();
  server = await startServer({ dataDir });
}, 120_000);

afterAll(async () => {
  if (server) await stop(server);
});

describe.skipIf(ON_POSTGRES || !SERVER_BUILT)("images under load", () => {
  it("answers the health check while the QR codes of 40 cards are being made", async () => {
    const url = server!.url;
    let pending = 0;
    const images = Array.from({ length: CARDS }, (_, i) => {
      pending++;
      return fetch(`${url}/profile/load.person.${i + 1}/qr.png`)
        .then(async (response) => ({ status: response.status, size: (await response.arrayBuffer()).byteLength }))
        .finally(() => pending--);
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const health = await fetch(`${url}/healthz`);
    const stillMaking = pending;
    // It answers, and the database (on this thread) did too; its disk check
    // (a synced write) depends on how busy the machine's disk is, not on us.
    const report = (await health.json()) as { database: { ok: boolean } };
    expect(report.database.ok, JSON.stringify(report)).toBe(true);
    // Encoded on the main thread, every code was made and sent before the
    // health check could answer; now it answers while codes are still queued.
    expect(stillMaking).toBeGreaterThan(0);
    const answers = await Promise.all(images);
    expect(answers.every((answer) => answer.status === 200 && answer.size > 0)).toBe(true);
  }, 120_000);

  it("makes each QR code once: many concurrent requests for one card get the same bytes", async () => {
    const url = `${server!.url}/profile/load.person.1/qr.png`;
    const bodies = await Promise.all(
      Array.from({ length: 30 }, async () => Buffer.from(await (await fetch(url)).arrayBuffer())),
    );
    expect(new Set(bodies.map((body) => body.toString("base64"))).size).toBe(1);
  }, 60_000);
});

/** The bytes on the wire, as a browser that accepts gzip receives them. */
function rawGet(url: string): Promise<{ encoding: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(
        url,
        { headers: { "accept-encoding": "gzip", "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0" } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () =>
            resolve({ encoding: response.headers["content-encoding"], body: Buffer.concat(chunks) }),
          );
          response.on("error", reject);
        },
      )
      .on("error", reject);
  });
}

describe.skipIf(ON_POSTGRES || !SERVER_BUILT)("compressed pages", () => {
  it("sends a card page gzip-compressed about as small as gzip makes its HTML", async () => {
    const { encoding, body } = await rawGet(`${server!.url}/profile/load.person.2`);
    expect(encoding).toBe("gzip");
    const html = zlib.gunzipSync(body);
    expect(html.toString("utf8")).toContain("Load Person 2");
    // Flushed after every streamed chunk, it was 40% larger than this.
    expect(body.length).toBeLessThan(zlib.gzipSync(html).length * 1.1);
  }, 60_000);

  it("sends large pages compressed without a listener per wait piling up (no leak warning in the log)", async () => {
    const cookie = await signedInMember(server!, "large.pages@example.com");
    for (const encoding of ["br", "gzip"]) {
      for (const page of ["/terms", "/privacy"]) {
        const response = await fetch(`${server!.url}${page}`, { headers: { cookie, "accept-encoding": encoding } });
        expect(response.status).toBe(200);
        expect((await response.text()).length).toBeGreaterThan(150_000);
      }
    }
    expect(server!.output()).not.toMatch(/MaxListenersExceededWarning|memory leak/);
  }, 60_000);
});
