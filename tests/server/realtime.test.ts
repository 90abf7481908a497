import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, getDatabaseHandle } from "~/.server/db/client";
import { profiles } from "~/.server/db/schema";
import { publish, type RealtimeEvent, startRealtime, subscribe } from "~/.server/realtime";
import { latestMail } from "../support/outbox";

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";

function nextEvent(predicate: (event: RealtimeEvent) => boolean, timeoutMs = 5_000) {
  return new Promise<RealtimeEvent>((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error("no event arrived"));
    }, timeoutMs);
    const unsubscribe = subscribe((event) => {
      if (!predicate(event)) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(event);
    });
  });
}

describe("realtime events through the database", () => {
  let stop: () => Promise<void>;
  beforeAll(async () => {
    stop = await startRealtime(getDatabaseHandle());
  });
  afterAll(async () => {
    await stop?.();
  });

  it("delivers an event published inside a transaction once it commits, with kind and id only", async () => {
    const arrived = nextEvent((event) => event.id === "p-1");
    await db.transaction(async (tx) => {
      await publish({ kind: "profile", id: "p-1" }, tx);
    });
    expect(await arrived).toEqual({ kind: "profile", id: "p-1" });
  });

  it("does not deliver an event whose transaction rolled back", async () => {
    const arrived = nextEvent((event) => event.id === "rolled-back", 800);
    await db
      .transaction(async (tx) => {
        await publish({ kind: "profile", id: "rolled-back" }, tx);
        throw new Error("abort");
      })
      .catch(() => {});
    await expect(arrived).rejects.toThrow("no event arrived");
  });
});

/**
 * Two real server processes on one PostgreSQL: a change made through one
 * reaches browsers connected to the other.
 */
const BUILT = fs.existsSync("build/server/index.js");
const ON_POSTGRES = process.env.NAMECARD_TEST_DB === "postgres";
if (ON_POSTGRES && !BUILT) console.warn("SKIPPED: the two-instance test needs `npm run build` first");

describe.skipIf(!ON_POSTGRES || !BUILT)("two app instances on one PostgreSQL", () => {
  const secret = "two-instances-share-this-secret-0123456789";
  const servers: { process: ChildProcess; port: number; dataDir: string }[] = [];

  async function startServer(port: number) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "namecard-instance-"));
    const child = spawn(process.execPath, ["server.js"], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(port),
        PUBLIC_URL: `http://localhost:${port}`,
        DATABASE_URL: process.env.NAMECARD_FILE_DATABASE_URL,
        DATA_DIR: dataDir,
        AUTH_SECRET: secret,
        ADMIN_EMAILS: "",
        SMTP_URL: "",
      },
      stdio: "ignore",
    });
    servers.push({ process: child, port, dataDir });
    for (let attempt = 0; attempt < 100; attempt++) {
      try {
        if ((await fetch(`http://localhost:${port}/healthz`)).ok) return { port, dataDir };
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    throw new Error(`server on ${port} did not start`);
  }

  async function signedInCookie(on: { port: number; dataDir: string }, verifyOn: { port: number }, email: string) {
    const signup = await fetch(`http://localhost:${on.port}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: `http://localhost:${on.port}` },
      body: JSON.stringify({
        name: "Ina Stance",
        firstName: "Ina",
        lastName: "Stance",
        email,
        password: "instance password",
      }),
    });
    expect(signup.ok).toBe(true);
    // The browser that signed up opens the link (mail leaves after the answer, so wait for it).
    const pending = signup.headers
      .getSetCookie()
      .map((cookie) => cookie.split(";")[0])
      .join("; ");
    let mail = latestMail(path.join(on.dataDir, "mail"), email);
    for (let attempt = 0; attempt < 50 && !mail; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      mail = latestMail(path.join(on.dataDir, "mail"), email);
    }
    const link = new URL(mail!.link!);
    const verified = await fetch(`http://localhost:${verifyOn.port}${link.pathname}${link.search}`, {
      headers: { cookie: pending },
      redirect: "manual",
    });
    return verified.headers
      .getSetCookie()
      .map((cookie) => cookie.split(";")[0])
      .join("; ");
  }

  async function openStream(port: number, cookie: string) {
    const controller = new AbortController();
    const response = await fetch(`http://localhost:${port}/events`, { headers: { cookie }, signal: controller.signal });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let text = "";
    return {
      async waitFor(needle: string, timeoutMs = 8_000) {
        const deadline = Date.now() + timeoutMs;
        while (!text.includes(needle)) {
          if (Date.now() > deadline) throw new Error(`no "${needle}" in: ${text}`);
          const chunk = await Promise.race([
            reader.read(),
            new Promise<{ done: true; value: undefined }>((resolve) =>
              setTimeout(() => resolve({ done: true, value: undefined }), 500),
            ),
          ]);
          if (chunk.value) text += new TextDecoder().decode(chunk.value);
        }
      },
      close: () => controller.abort(),
    };
  }

  beforeAll(async () => {
    const base = 3200 + Math.floor(Math.random() * 500);
    await Promise.all([startServer(base), startServer(base + 1)]);
  }, 60_000);

  afterAll(async () => {
    for (const server of servers) {
      server.process.kill("SIGTERM");
      await new Promise((resolve) => server.process.once("exit", resolve));
    }
  });

  it("delivers each instance's events to browsers connected to the other", async () => {
    const [a, b] = servers as [(typeof servers)[0], (typeof servers)[0]];
    const [card] = await db
      .insert(profiles)
      .values({ email: "shown@example.org", firstName: "Shown", lastName: "Card", username: "shown.card" })
      .returning();

    const cookie = await signedInCookie(a, b, "ina@example.org");
    expect(cookie).toContain("namecard.session_token=");
    const onB = await openStream(b.port, cookie);
    const onA = await openStream(a.port, cookie);
    await onB.waitFor(": connected");
    await onA.waitFor(": connected");

    // A visitor opens the card through instance A; B's subscribers hear of it.
    await fetch(`http://localhost:${a.port}/profile/shown.card`, {
      headers: { "user-agent": BROWSER, "x-forwarded-for": "203.0.113.1" },
    });
    await onB.waitFor(`"id":"${card!.id}"`);

    // And the other way round, from a second visitor on B.
    await db.update(profiles).set({ viewCount: 0 });
    await fetch(`http://localhost:${b.port}/profile/shown.card?src=qr`, {
      headers: { "user-agent": `${BROWSER} Second` },
    });
    await onA.waitFor(`{"kind":"view","id":"${card!.id}"}`);
    onA.close();
    onB.close();
  });
});
