import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
// @ts-expect-error s3rver ships no type declarations
import S3rver from "s3rver";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveBrand } from "~/.server/brands/save-brand";
import { db } from "~/.server/platform/db/client";
import { brands, profiles, siteSettings } from "~/.server/platform/db/schema";
import { publish } from "~/.server/platform/realtime";
import { setCardState } from "~/.server/profiles/deactivation";
import { present } from "../support/present";
import { type RoundRobinProxy, startRoundRobinProxy } from "../support/round-robin-proxy";
import {
  SERVER_BUILT,
  type ServerProcess,
  scratchDir,
  signedInMember,
  startServer,
  stop,
} from "../support/server-process";
import { storedViews } from "../support/stored-views";

/**
 * Three real server processes on one PostgreSQL (this file runs on PostgreSQL
 * only), behind a small round-robin proxy, as docs/scaling.md deploys them:
 * what one instance keeps in memory (kept pages, directory totals, view
 * counts) never outlives a change made through another by more than a second,
 * a visitor is counted once whichever instances they reach, and a killed
 * instance loses nothing it answered.
 */
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";
const ADMIN = {
  user: { id: "instances-test-admin", email: "admin@example.com", name: "Ada Admin" },
  role: "admin" as const,
};
/**
 * Every instance keeps what pages read for a minute at most (app/.server/platform/read-cache.ts): a change
 * seen within half of that reached it by its event, not by the kept copy growing old. How soon it
 * does is measured by bench/instances.ts, not here.
 */
const KEPT_HALF_LIFE_MS = 30_000;

describe.skipIf(!SERVER_BUILT)("three app instances on one PostgreSQL behind one proxy", () => {
  const instances: ServerProcess[] = [];
  let proxy: RoundRobinProxy;
  let s3: { close(): Promise<void> };
  let s3Endpoint: string;
  const s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), "namecard-s3-"));

  const launch = async (dataDir = scratchDir("namecard-instance-"), port?: number) =>
    startServer({
      dataDir,
      port,
      databaseUrl: process.env.NAMECARD_FILE_DATABASE_URL,
      // One bucket for every instance's uploads, as docs/scaling.md sets them up.
      env: {
        TRUST_PROXY: "loopback",
        S3_ENDPOINT: s3Endpoint,
        S3_BUCKET: "uploads",
        S3_ACCESS_KEY_ID: "S3RVER",
        S3_SECRET_ACCESS_KEY: "S3RVER",
      },
    });

  beforeAll(async () => {
    const server = new S3rver({
      address: "127.0.0.1",
      port: 0,
      silent: true,
      directory: s3Dir,
      configureBuckets: [{ name: "uploads", configs: [] }],
    });
    s3Endpoint = `http://127.0.0.1:${((await server.run()) as { port: number }).port}`;
    s3 = server;
    instances.push(...(await Promise.all([launch(), launch(), launch()])));
    proxy = await startRoundRobinProxy(instances.map((instance) => instance.port));
  }, 180_000);

  afterAll(async () => {
    await proxy?.close();
    await Promise.all(instances.map((instance) => stop(instance)));
    await s3?.close();
    for (const instance of instances) fs.rmSync(instance.dataDir, { recursive: true, force: true });
    fs.rmSync(s3Dir, { recursive: true, force: true });
  });

  /** A visitor at `ip`: anonymous, or signed in with `cookie`. */
  async function visit(base: string, pathname: string, ip: string, cookie?: string) {
    const response = await fetch(`${base}${pathname}`, {
      headers: { "user-agent": BROWSER, "x-forwarded-for": ip, ...(cookie ? { cookie } : {}) },
      redirect: "manual",
    });
    return { status: response.status, location: response.headers.get("location"), text: await response.text() };
  }

  /**
   * Asks every instance until each shows what `shows` looks for, which must
   * be before what it kept could have grown old on its own.
   */
  async function shownEverywhere(
    pathname: string,
    shows: (answer: Awaited<ReturnType<typeof visit>>) => boolean,
    cookie?: string,
  ) {
    await Promise.all(
      instances.map((instance) =>
        expect
          .poll(async () => shows(await visit(instance.url, pathname, "10.20.0.1", cookie)), {
            message: `instance on ${instance.port} shows the change`,
            timeout: KEPT_HALF_LIFE_MS,
            interval: 25,
          })
          .toBe(true),
      ),
    );
  }

  async function editCard(instance: ServerProcess, cookie: string, fields: Record<string, string>, photo?: Buffer) {
    const form = new FormData();
    if (photo) form.set("photo", new File([new Uint8Array(photo)], "photo.png", { type: "image/png" }));
    for (const [name, value] of Object.entries({
      phone: "",
      bio: "",
      linkedinUrl: "",
      companyBrandId: "",
      ...fields,
    })) {
      form.set(name, value);
    }
    const response = await fetch(`http://localhost:${instance.port}/profile/edit`, {
      method: "POST",
      headers: { cookie, origin: `http://localhost:${instance.port}` },
      body: form,
      redirect: "manual",
    });
    expect(response.status, await response.text()).toBe(302);
  }

  it("shows an edit, a new username, a brand's change, a site setting and a deactivation made through one instance on every instance within a second", async () => {
    const [a] = instances as [ServerProcess];
    const email = "everywhere@example.com";
    const cookie = await signedInMember(a, email, { first: "Every", last: "Where" });
    const [row] = await db.select().from(profiles).where(eq(profiles.email, email));
    const card = present(row, "the member's card");
    const fields = { firstName: "Every", lastName: "Where", email, username: card.username };

    // Every instance keeps the card's page for anonymous visitors: a change made behind the app's back (no event) does not show...
    await db.update(profiles).set({ title: "Kept Title" }).where(eq(profiles.id, card.id));
    for (const instance of instances) {
      expect((await visit(instance.url, `/profile/${card.username}`, "10.20.0.1")).text).toContain("Kept Title");
    }
    await db.update(profiles).set({ title: "Quiet Title" }).where(eq(profiles.id, card.id));
    for (const instance of instances) {
      expect((await visit(instance.url, `/profile/${card.username}`, "10.20.0.1")).text).toContain("Kept Title");
    }

    // So does a signed-in page of the directory that shows the card.
    const tile = (page: { text: string }) => /(Kept|Quiet) Title|Edited On One Instance/.exec(page.text)?.[0];
    await db.update(profiles).set({ title: "Kept Title" }).where(eq(profiles.id, card.id));
    await publish({ kind: "profile", id: card.id });
    for (const instance of instances) {
      await expect
        .poll(async () => tile(await visit(instance.url, "/directory?q=everywhere", "10.20.0.1", cookie)))
        .toBe("Kept Title");
    }
    await db.update(profiles).set({ title: "Quiet Title" }).where(eq(profiles.id, card.id));
    for (const instance of instances) {
      expect(tile(await visit(instance.url, "/directory?q=everywhere", "10.20.0.1", cookie))).toBe("Kept Title");
    }

    // ...but an edit saved through one instance shows on every one, on the card and in the directory.

    await editCard(a, cookie, { ...fields, title: "Edited On One Instance" });
    await shownEverywhere(`/profile/${card.username}`, (page) => page.text.includes("Edited On One Instance"));
    await shownEverywhere(`/qr/${card.username}`, (page) => page.text.includes("Edited On One Instance"));
    await shownEverywhere("/directory?q=everywhere", (page) => tile(page) === "Edited On One Instance", cookie);

    // The directory's totals are kept too: a colleague who joins through one instance is counted on every one.
    const total = (page: { text: string }) =>
      Number(/([\d,]+)(?:<!-- -->| )+Profiles?</.exec(page.text)?.[1]?.replace(/,/g, ""));
    const before = await Promise.all(
      instances.map(async (instance) => total(await visit(instance.url, "/directory", "10.20.0.1", cookie))),
    );
    expect(before[0]).toBeGreaterThan(0);
    expect(new Set(before).size).toBe(1);
    await signedInMember(a, "joined@example.com", { first: "Jo", last: "Ined" });
    await shownEverywhere("/directory", (page) => total(page) === before[0]! + 1, cookie);

    // A new username: the old address moves to the new one on every instance.
    const renamed = `${card.username}.moved`;
    await editCard(a, cookie, { ...fields, username: renamed, title: "Renamed" });
    await shownEverywhere(
      `/profile/${card.username}`,
      (page) => page.status === 307 && page.location === `/profile/${renamed}`,
    );
    await shownEverywhere(`/profile/${renamed}`, (page) => page.text.includes("Renamed"));

    // A site setting: every kept page of every card goes.
    await db
      .insert(siteSettings)
      .values({ id: 1, primaryColor: "#123456" })
      .onConflictDoUpdate({ target: siteSettings.id, set: { primaryColor: "#123456" } });
    await publish({ kind: "settings", id: "1" });
    await shownEverywhere(`/profile/${renamed}`, (page) => page.text.includes("--brand-primary:#123456"));

    // A brand's name, changed by an administrator elsewhere (this test's own process is a fourth instance).
    const [brand] = await db.insert(brands).values({ name: "Everywhere Ltd", primaryColor: "#0b6e4f" }).returning();
    const brandId = present(brand, "the brand").id;
    await editCard(a, cookie, {
      ...fields,
      username: renamed,
      title: "Renamed",
      companyBrandId: String(brandId),
    });
    await shownEverywhere(`/profile/${renamed}`, (page) => page.text.includes("Everywhere Ltd"));
    await saveBrand({
      actor: ADMIN,
      brandId,
      fields: { name: "Everywhere Group", primaryColor: "#7c2d12", secondaryColor: "#1e3a8a", website: "" } as never,
      logo: { kind: "keep" },
      cover: { kind: "keep" },
    });
    await shownEverywhere(`/profile/${renamed}`, (page) => page.text.includes("Everywhere Group"));

    // Switched off: gone from every instance, and its owner signed out on every one.
    await setCardState({ actor: ADMIN, profileId: card.id, state: "deactivated" });
    await shownEverywhere(`/profile/${renamed}`, (page) => page.status === 410);
    for (const instance of instances) {
      const own = await fetch(`${instance.url}/profile/edit`, { headers: { cookie }, redirect: "manual" });
      expect(own.status, `signed out on ${instance.port}`).toBe(302);
    }
  }, 120_000);

  it("shows a photo uploaded through one instance from every instance", async () => {
    const [a] = instances as [ServerProcess];
    const email = "pictured@example.com";
    const cookie = await signedInMember(a, email, { first: "Pic", last: "Tured" });
    const [row] = await db.select().from(profiles).where(eq(profiles.email, email));
    const card = present(row, "the member's card");
    const photo = await sharp({ create: { width: 400, height: 400, channels: 3, background: "#0b6e4f" } })
      .png()
      .toBuffer();
    await editCard(a, cookie, { firstName: "Pic", lastName: "Tured", email, username: card.username }, photo);
    for (const instance of instances) {
      const page = (await visit(instance.url, `/profile/${card.username}`, "10.30.0.1")).text;
      const source = present(/src="(\/uploads\/[^"]+)"/.exec(page)?.[1], `the photo on ${instance.port}`);
      for (const other of instances) {
        const image = await fetch(`${other.url}${source.replaceAll("&amp;", "&")}`);
        expect(image.status, `${source} from ${other.port}`).toBe(200);
        expect(image.headers.get("content-type")).toMatch(/^image\//);
      }
    }
  }, 60_000);

  it("counts a visitor once whichever instances they reach, every other visitor once, and every instance shows the same total", async () => {
    const [inserted] = await db
      .insert(profiles)
      .values({ email: "counted@example.org", firstName: "Count", lastName: "Ed", username: "counted.once" })
      .returning();
    const card = present(inserted, "the card");

    // One visitor reloads ten times through the proxy: each instance sees them about three times.
    for (let i = 0; i < 10; i++) await visit(proxy.url, "/profile/counted.once", "198.51.100.7");
    // Twelve others come at once, from addresses of their own.
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => visit(proxy.url, "/profile/counted.once?src=qr", `198.51.100.${20 + i}`)),
    );
    const stored = () => storedViews(card.id);
    await expect.poll(stored, { timeout: 15_000 }).toEqual({ viewCount: 13, views: 13 });
    for (const instance of instances) {
      await expect
        .poll(
          async () =>
            /data-testid="view-count">([\d,]+)</.exec(
              (await visit(instance.url, "/profile/counted.once", "198.51.100.7")).text,
            )?.[1],
          {
            timeout: 5_000,
          },
        )
        .toBe("13");
    }
  }, 120_000);

  it("goes on through the other instances when one is killed, loses nothing it answered, and writes its counted views when it starts again", async () => {
    const [inserted] = await db
      .insert(profiles)
      .values({ email: "killed@example.org", firstName: "Kill", lastName: "Ed", username: "killed.instance" })
      .returning();
    const card = present(inserted, "the card");
    const victim = instances[2]!;

    // Visitors on the instance about to die: counted, shown to them as counted, not all written yet.
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => visit(victim.url, "/profile/killed.instance", `192.0.2.${i + 1}`)),
    );
    victim.child.kill("SIGKILL");
    await victim.exited;

    // The proxy sends everyone to the two left; nobody gets an error.
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => visit(proxy.url, "/profile/killed.instance", `192.0.2.${100 + i}`)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(200));

    // Started again on its data directory, it writes the views it had counted: 32 in all, none twice.
    instances[2] = await launch(victim.dataDir, victim.port);
    await expect.poll(() => storedViews(card.id), { timeout: 15_000 }).toEqual({ viewCount: 32, views: 32 });
  }, 180_000);

  it("delivers each instance's events to browsers connected to the others", async () => {
    const [a, b, c] = instances as [ServerProcess, ServerProcess, ServerProcess];
    const cookie = await signedInMember(a, "streams@example.com", { first: "Stre", last: "Ams" });
    const [inserted] = await db
      .insert(profiles)
      .values({ email: "shown@example.org", firstName: "Shown", lastName: "Card", username: "shown.card" })
      .returning();
    const card = present(inserted, "the card");
    const onB = await openStream(b, cookie);
    const onC = await openStream(c, cookie);
    await onB.waitFor(": connected");
    await onC.waitFor(": connected");

    // A visitor opens the card through instance A; browsers on B and C hear of the view.
    await visit(a.url, "/profile/shown.card", "203.0.113.1");
    await onB.waitFor(`{"kind":"view","id":"${card.id}"}`);
    await onC.waitFor(`{"kind":"view","id":"${card.id}"}`);
    onB.close();
    onC.close();
  }, 60_000);

  async function openStream(instance: ServerProcess, cookie: string) {
    const controller = new AbortController();
    const response = await fetch(`${instance.url}/events`, { headers: { cookie }, signal: controller.signal });
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
});
