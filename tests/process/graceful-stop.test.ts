import net from "node:net";
import path from "node:path";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { openPglite, rowsOf } from "~/.server/platform/db/client";
import { ON_POSTGRES, startedProcesses } from "../support/process-suite";
import {
  migratedDataDir,
  SERVER_BUILT,
  type ServerProcess,
  signedInMember,
  startServer,
  usernameIn,
} from "../support/server-process";

/** One embedded server is enough: stopping is the process's business, whatever the engine. */
const EMBEDDED = !ON_POSTGRES;

const started = startedProcesses("the graceful-stop tests");

/** A raw HTTP/1.1 exchange we control byte by byte: what a slow client on a slow network does. */
function rawRequest(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  let received = Buffer.alloc(0);
  socket.on("data", (chunk) => {
    received = Buffer.concat([received, chunk]);
  });
  const ended = new Promise<string>((resolve, reject) => {
    socket.on("end", () => resolve(received.toString("latin1")));
    socket.on("error", reject);
  });
  const connected = new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  return { socket, connected, ended };
}

async function multipartBody(fields: Record<string, string>, photo: Buffer) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set("photo", new File([new Uint8Array(photo)], "photo.png", { type: "image/png" }));
  const request = new Request("http://localhost/", { method: "POST", body: form });
  return { body: Buffer.from(await request.arrayBuffer()), type: request.headers.get("content-type")! };
}

async function usernameOf(server: ServerProcess, cookie: string) {
  const home = await fetch(`${server.url}/profile/edit`, { headers: { cookie } });
  const html = await home.text();
  return usernameIn(html);
}

describe.skipIf(!EMBEDDED || !SERVER_BUILT)("a graceful stop", () => {
  it("lets an upload and a directory request in flight finish, ends event streams, then exits", async () => {
    const dataDir = await migratedDataDir();
    const server = await startServer({ dataDir });
    started.push(server);
    const cookie = await signedInMember(server, "slow.client@example.com", { first: "Slow", last: "Client" });
    const username = await usernameOf(server, cookie);

    // An open event stream, which never ends by itself.
    const events = await fetch(`${server.url}/events`, { headers: { cookie } });
    expect(events.status).toBe(200);
    const eventsDone = events.text();

    // An upload whose body has half arrived, and a directory request whose headers have not all arrived.
    const photo = await sharp({ create: { width: 300, height: 300, channels: 3, background: "#0a7" } })
      .png()
      .toBuffer();
    const upload = await multipartBody(
      {
        firstName: "Slow",
        lastName: "Client",
        email: "slow.client@example.com",
        username,
        title: "Saved during shutdown",
        phone: "",
        bio: "",
        linkedinUrl: "",
        companyBrandId: "",
      },
      photo,
    );
    const uploading = rawRequest(server.port);
    await uploading.connected;
    uploading.socket.write(
      `POST /profile/edit HTTP/1.1\r\nHost: localhost:${server.port}\r\nOrigin: http://localhost:${server.port}\r\n` +
        `Cookie: ${cookie}\r\nContent-Type: ${upload.type}\r\nContent-Length: ${upload.body.length}\r\n\r\n`,
    );
    const half = Math.floor(upload.body.length / 2);
    uploading.socket.write(upload.body.subarray(0, half));

    const browsing = rawRequest(server.port);
    await browsing.connected;
    browsing.socket.write(`GET /directory HTTP/1.1\r\nHost: localhost:${server.port}\r\n`);

    // Both connections are in the server's hands once a later request has been answered.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

    server.child.kill("SIGTERM");
    await server.waitForOutput(/\[server\] SIGTERM: finishing requests in flight/);
    // The event stream ends instead of holding the stop.
    await eventsDone;
    // New connections are refused.
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();

    browsing.socket.write(`Cookie: ${cookie}\r\n\r\n`);
    uploading.socket.write(upload.body.subarray(half));

    const directory = await browsing.ended;
    expect(directory).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(directory).toMatch(/Connection: close/i);
    expect(directory).toContain("Slow");
    const saved = await uploading.ended;
    expect(saved).toMatch(/^HTTP\/1\.1 302 Found/);
    expect(saved).toMatch(new RegExp(`^location: /profile/${username.replace(/\./g, "\\.")}\r$`, "im"));

    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.output()).toMatch(/\[server\] stopped/);
    // It stopped when the last request ended, not when its grace period ran out.
    expect(server.output()).not.toMatch(/requests still running after/);

    // What the upload sent was saved, photo included.
    const handle = await openPglite({ dataDir: path.join(dataDir, "db") });
    try {
      const [row] = rowsOf(
        await handle.db.execute(sql`select title, profile_photo from profiles where username = ${username}`),
      ) as { title: string; profile_photo: string | null }[];
      expect(row).toMatchObject({ title: "Saved during shutdown" });
      expect(row?.profile_photo).toMatch(/^profiles\/[a-f0-9]+\.webp$/);
    } finally {
      await handle.close();
    }
  }, 120_000);
});
