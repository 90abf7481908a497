import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/.server/db/client";
import { profiles, siteSettings } from "~/.server/db/schema";
import { publish } from "~/.server/realtime";
import { IN_CI } from "../support/checkers";
import { createMember } from "../support/members";
import { present } from "../support/present";
import { freePort } from "../support/server-process";

/**
 * Two real server processes on one PostgreSQL (this file runs on PostgreSQL
 * only): a change made through one reaches browsers connected to the other.
 */
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";

const SERVER_START_TIMEOUT_MS = 45_000;

const BUILT = fs.existsSync("build/server/index.js");
if (!BUILT) {
  const message = "the two-instance test starts the built server: run `npm run build` first";
  if (IN_CI) throw new Error(message);
  console.warn(`\n[tests] SKIPPED: ${message}\n`);
}

describe.skipIf(!BUILT)("two app instances on one PostgreSQL", () => {
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
        // The tests' own secret, so a session made here is valid on both instances.
        AUTH_SECRET: process.env.AUTH_SECRET,
        ADMIN_EMAILS: "",
        SMTP_URL: "",
      },
      stdio: "ignore",
    });
    servers.push({ process: child, port, dataDir });
    // A cold start takes a few seconds, many more on a busy machine.
    const deadline = Date.now() + SERVER_START_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`server on ${port} exited with ${child.exitCode}`);
      try {
        if ((await fetch(`http://localhost:${port}/healthz`)).ok) return { port, dataDir };
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    throw new Error(`server on ${port} did not start`);
  }

  async function openStream(port: number, cookie: string) {
    const controller = new AbortController();
    const response = await fetch(`http://localhost:${port}/events`, { headers: { cookie }, signal: controller.signal });
    expect(response.status).toBe(200);
    const reader = present(response.body, "an event stream").getReader();
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
    await Promise.all([startServer(await freePort()), startServer(await freePort())]);
  }, SERVER_START_TIMEOUT_MS + 15_000);

  afterAll(async () => {
    for (const server of servers) {
      server.process.kill("SIGTERM");
      await new Promise((resolve) => server.process.once("exit", resolve));
      fs.rmSync(server.dataDir, { recursive: true, force: true });
    }
  });

  it("delivers each instance's events to browsers connected to the other", async () => {
    const [a, b] = servers as [(typeof servers)[0], (typeof servers)[0]];
    const [inserted] = await db
      .insert(profiles)
      .values({ email: "shown@example.org", firstName: "Shown", lastName: "Card", username: "shown.card" })
      .returning();
    const card = present(inserted, "the card");

    const { cookie } = await createMember({ email: "ina@example.org", firstName: "Ina", lastName: "Stance" });
    const onB = await openStream(b.port, cookie);
    const onA = await openStream(a.port, cookie);
    await onB.waitFor(": connected");
    await onA.waitFor(": connected");

    // A visitor opens the card through instance A; B's subscribers hear of it.
    await fetch(`http://localhost:${a.port}/profile/shown.card`, {
      headers: { "user-agent": BROWSER, "x-forwarded-for": "203.0.113.1" },
    });
    await onB.waitFor(`"id":"${card.id}"`);

    // And the other way round, from a second visitor on B.
    await db.update(profiles).set({ viewCount: 0 });
    await fetch(`http://localhost:${b.port}/profile/shown.card?src=qr`, {
      headers: { "user-agent": `${BROWSER} Second` },
    });
    await onA.waitFor(`{"kind":"view","id":"${card.id}"}`);
    onA.close();
    onB.close();
  });

  it("drops the anonymous card that one instance keeps when the card or the site changes through the other", async () => {
    const [a, b] = servers as [(typeof servers)[0], (typeof servers)[0]];
    const { cookie, email } = await createMember({ email: "kept@example.org", firstName: "Kept", lastName: "Card" });
    const [row] = await db.select().from(profiles).where(eq(profiles.email, email));
    const card = present(row, "the member's card");
    const anonymous = async () =>
      (
        await fetch(`http://localhost:${b.port}/profile/${card.username}`, { headers: { "user-agent": BROWSER } })
      ).text();
    await db.update(profiles).set({ title: "First Title" }).where(eq(profiles.id, card.id));
    expect(await anonymous()).toContain("First Title");

    // Instance B answers anonymous visitors from the page it kept: a change made
    // behind the app's back (no event) does not show...
    await db.update(profiles).set({ title: "Quiet Title" }).where(eq(profiles.id, card.id));
    expect(await anonymous()).toContain("First Title");

    // ...but an edit saved through instance A shows on B as soon as A's event arrives.
    const form = new FormData();
    const fields = { firstName: "Kept", lastName: "Card", email, username: card.username, title: "Edited On A" };
    for (const [name, value] of Object.entries({
      phone: "",
      bio: "",
      linkedinUrl: "",
      companyBrandId: "",
      ...fields,
    })) {
      form.set(name, value);
    }
    const saved = await fetch(`http://localhost:${a.port}/profile/edit`, {
      method: "POST",
      headers: { cookie, origin: `http://localhost:${a.port}` },
      body: form,
      redirect: "manual",
    });
    expect(saved.status, await saved.text()).toBe(302);
    await expect.poll(anonymous, { timeout: 8_000 }).toContain("Edited On A");

    // A site setting changed elsewhere (here by the test, as a third instance would) drops every kept page.
    await db
      .insert(siteSettings)
      .values({ id: 1, primaryColor: "#123456" })
      .onConflictDoUpdate({ target: siteSettings.id, set: { primaryColor: "#123456" } });
    await publish({ kind: "settings", id: "1" });
    await expect.poll(anonymous, { timeout: 8_000 }).toContain("--brand-primary:#123456");
  });
});
