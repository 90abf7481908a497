import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, MAX_CONNECTIONS_PER_CLIENT } from "../../server/connections";
import { ON_POSTGRES } from "../support/process-suite";
import { SERVER_BUILT, type ServerProcess, startServer, stop } from "../support/server-process";

/**
 * What one client may hold of the built server, reached directly (no proxy):
 * a bounded number of connections at once, and a bounded time to send its
 * request's headers.
 */
if (!SERVER_BUILT) console.warn("SKIPPED: the connection-limit tests need `npm run build` first");

/** A raw connection; `closed` resolves when the server closes it. */
function connect(port: number) {
  return new Promise<{ socket: net.Socket; closed: Promise<void> }>((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.on("error", () => {});
    const closed = new Promise<void>((done) => socket.once("close", () => done()));
    socket.once("connect", () => resolve({ socket, closed }));
    socket.once("error", reject);
  });
}

function closesWithin(connection: { closed: Promise<void> }, ms: number) {
  return Promise.race([
    connection.closed.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
  ]);
}

// The HTTP edge is the same whatever the engine: the embedded one, once.
describe.skipIf(ON_POSTGRES || !SERVER_BUILT)("one client's share of the server", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer();
  }, 90_000);
  afterAll(() => stop(server));

  it(`holds at most ${MAX_CONNECTIONS_PER_CLIENT} connections from one address; closing some makes room`, async () => {
    const held = [];
    for (let index = 0; index < MAX_CONNECTIONS_PER_CLIENT; index++) held.push(await connect(server.port));
    // One more is closed unanswered at once.
    const extra = await connect(server.port);
    expect(await closesWithin(extra, 10_000)).toBe(true);
    // Those held are still open.
    expect(await closesWithin(held[0]!, 200)).toBe(false);

    for (const connection of held.splice(0, 10)) connection.socket.destroy();
    await expect
      .poll(async () => (await fetch(`${server.url}/healthz`).catch(() => null))?.status, { timeout: 10_000 })
      .toBe(200);
    for (const connection of held) connection.socket.destroy();
  });

  it("keeps an idle connection open longer than a proxy's or a client's own idle time, and says how long", async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.headers.get("keep-alive")).toBe(`timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}`);
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);

    const idle = await connect(server.port);
    let received = "";
    idle.socket.on("data", (chunk: Buffer) => {
      received += chunk.toString();
    });
    const answers = () => received.match(/HTTP\/1\.1 200 /g)?.length ?? 0;
    const ask = () => idle.socket.write("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n");
    ask();
    await expect.poll(answers, { timeout: 10_000 }).toBe(1);
    // Idle past Node's default keep-alive (5 s), the connection still carries the next request.
    expect(await closesWithin(idle, 7_000)).toBe(false);
    ask();
    await expect.poll(answers, { timeout: 10_000 }).toBe(2);
    idle.socket.destroy();
  }, 40_000);

  it("closes a connection that sends its headers too slowly", async () => {
    const slow = await connect(server.port);
    slow.socket.write("GET /healthz HTTP/1.1\r\nHost: localhost\r\n");
    // A header line now and then, never the end of the headers.
    const drip = setInterval(() => slow.socket.write("X-Slow: 1\r\n"), 1_000);
    try {
      expect(await closesWithin(slow, HEADERS_TIMEOUT_MS + 10_000)).toBe(true);
    } finally {
      clearInterval(drip);
    }
  }, 40_000);
});
