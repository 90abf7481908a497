import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
// @ts-expect-error s3rver ships no type declarations
import S3rver from "s3rver";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/.server/platform/db/client";
import { profiles, siteSettings } from "~/.server/platform/db/schema";
import { createS3Storage, getStorage, setStorage } from "~/.server/platform/storage";
import { loader as rootLoader } from "~/root";
import { action as brandingAction, loader as brandingLoader } from "~/routes/admin/settings/branding";
import { action as generalAction } from "~/routes/admin/settings/general";
import { action as legalAction, loader as legalLoader } from "~/routes/admin/settings/legal";
import { loader as faviconLoader } from "~/routes/favicon.ico";
import { loader as cardLoader } from "~/routes/profile/$username";
import { loader as qrLoader } from "~/routes/qr/$username";
import { loader as uploadsLoader } from "~/routes/uploads.$";
import { expectConsoleError } from "../support/console";
import { BASE, cookieFrom, createMember, getRequest, insertCard, multipartRequest, present, run } from "./helpers";

type Failure = { fieldErrors?: Record<string, string[]>; formError?: string };

async function png(color: string, width = 160, height = width) {
  return sharp({ create: { width, height, channels: 4, background: color } })
    .png()
    .toBuffer();
}

/** A settings tab's form as the browser sends it: the text fields, and files where chosen. */
function settingsForm(
  fields: Record<string, string>,
  files: Record<string, { bytes: Uint8Array; name?: string }> = {},
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  for (const [name, file] of Object.entries(files)) {
    form.set(name, new File([new Uint8Array(file.bytes)], file.name ?? `${name}.png`, { type: "image/png" }));
  }
  return form;
}

async function admin() {
  return createMember({ email: "admin@example.com" });
}

const TABS = { branding: brandingAction, general: generalAction, legal: legalAction };

/** Sends a tab's form (the branding tab's, which holds the images, unless said). */
async function save(who: Awaited<ReturnType<typeof admin>>, form: FormData, tab: keyof typeof TABS = "branding") {
  const request = await multipartRequest(`/admin/settings/${tab}`, form, { cookie: who.cookie });
  return run(TABS[tab], request, {}, who.viewer);
}

async function storedRow() {
  const [row] = await db.select().from(siteSettings);
  return row ?? null;
}

/** Every stored object under the site's images. */
async function siteFiles(keys: (string | null | undefined)[]) {
  const found: string[] = [];
  for (const key of keys) if (key && (await getStorage().get(key))) found.push(key);
  return found;
}

type Storage = { name: string; start: () => Promise<() => Promise<void>> };

/** The same rules on both stores this product writes to: local disk and an S3-compatible bucket. */
const STORES: Storage[] = [
  { name: "on disk", start: async () => async () => {} },
  {
    name: "in an S3-compatible bucket",
    start: async () => {
      const instance = new S3rver({
        address: "127.0.0.1",
        port: 0,
        silent: true,
        directory: fs.mkdtempSync(path.join(os.tmpdir(), "namecard-s3-")),
        configureBuckets: [{ name: "site", configs: [] }],
      });
      const address = (await instance.run()) as { port: number };
      setStorage(
        createS3Storage({
          endpoint: `http://127.0.0.1:${address.port}`,
          bucket: "site",
          region: "us-east-1",
          accessKeyId: "S3RVER",
          secretAccessKey: "S3RVER",
        }),
      );
      return async () => {
        setStorage(undefined);
        await instance.close();
      };
    },
  },
];

describe.each(STORES)("the site's logos and favicon, stored $name", (store) => {
  let stop: () => Promise<void>;
  beforeEach(async () => {
    stop = await store.start();
  });
  afterEach(async () => {
    await stop();
  });

  it("uploads the logo, dark-mode logo, favicon and footer logo, and serves them from this site", async () => {
    const who = await admin();
    const result = await save(
      who,
      settingsForm(
        {},
        {
          primaryLogo: { bytes: await png("#0f766e", 1200, 300) },
          darkModeLogo: { bytes: await png("#f8fafc", 1200, 300) },
          favicon: { bytes: await png("#ea580c", 64, 48) },
          footerLogo: { bytes: await png("#334155", 200, 100) },
        },
      ),
    );
    expect(result).toMatchObject({ status: 302, location: "/admin/settings/branding" });

    const row = present(await storedRow(), "the settings row");
    expect(row.primaryLogo).toMatch(/^settings\/[0-9a-f]{32}-logo\.webp$/);
    expect(row.darkModeLogo).toMatch(/^settings\/[0-9a-f]{32}-logo\.webp$/);
    expect(row.footerLogo).toMatch(/^settings\/[0-9a-f]{32}-logo\.webp$/);
    expect(row.favicon).toMatch(/^settings\/[0-9a-f]{32}-favicon\.png$/);

    // Logos keep their proportions, bounded; the favicon is a square PNG with its transparency.
    const logo = await sharp(present(await getStorage().get(present(row.primaryLogo, "logo")), "logo").body).metadata();
    expect([logo.format, logo.width, logo.height]).toEqual(["webp", 800, 200]);
    const favicon = present(await getStorage().get(present(row.favicon, "favicon")), "favicon");
    expect(favicon.contentType).toBe("image/png");
    const icon = await sharp(favicon.body).metadata();
    expect([icon.format, icon.width, icon.height, icon.hasAlpha]).toEqual(["png", 64, 64, true]);

    // Every page is told where they are on this site.
    const root = await run(rootLoader, getRequest("/auth"));
    expect((root.data as { site: object }).site).toMatchObject({
      primaryLogo: `/uploads/${row.primaryLogo}`,
      darkModeLogo: `/uploads/${row.darkModeLogo}`,
      favicon: `/uploads/${row.favicon}`,
      footerLogo: `/uploads/${row.footerLogo}`,
    });
    const served = (await uploadsLoader({ params: { "*": present(row.favicon, "favicon") } } as never)) as Response;
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    // Whoever asks for /favicon.ico without reading a page gets the same icon.
    const ico = (await faviconLoader()) as Response;
    expect([ico.status, ico.headers.get("content-type"), ico.headers.get("cache-control")]).toEqual([
      200,
      "image/png",
      "public, max-age=3600",
    ]);
    expect(Buffer.from(await ico.arrayBuffer()).equals(Buffer.from(favicon.body))).toBe(true);

    // The form shows the images it keeps.
    const page = await run(brandingLoader, getRequest("/admin/settings/branding", who.cookie), {}, who.viewer);
    expect((page.data as { images: object }).images).toMatchObject({ favicon: `/uploads/${row.favicon}` });
  });

  it("replaces and removes an image, deleting the file no setting uses any more", async () => {
    const who = await admin();
    await save(who, settingsForm({}, { primaryLogo: { bytes: await png("#1d4ed8", 400, 100) } }));
    const first = present((await storedRow())?.primaryLogo, "the first logo");

    // Saving other fields, on this tab or another, keeps the logo.
    await save(who, settingsForm({ primaryColor: "#0f766e" }));
    await save(who, settingsForm({ companyName: "Northwind" }), "general");
    expect((await storedRow())?.primaryLogo).toBe(first);

    await save(who, settingsForm({}, { primaryLogo: { bytes: await png("#b91c1c", 400, 100) } }));
    const second = present((await storedRow())?.primaryLogo, "the second logo");
    expect(second).not.toBe(first);
    expect(await siteFiles([first, second])).toEqual([second]);

    const removed = await save(who, settingsForm({ primaryLogoRemove: "1" }));
    expect(removed.status).toBe(302);
    expect((await storedRow())?.primaryLogo).toBeNull();
    expect(await siteFiles([second])).toEqual([]);
  });

  it("refuses a file that is not a usable image with a message on its field, together with the text fields' mistakes, and saves nothing", async () => {
    const who = await admin();
    const refused = await save(
      who,
      settingsForm(
        { primaryColor: "orange" },
        {
          primaryLogo: { bytes: new TextEncoder().encode("%PDF-1.7 not an image"), name: "logo.pdf" },
          favicon: { bytes: await png("#ea580c", 16) },
          darkModeLogo: { bytes: new Uint8Array(2 * 1024 * 1024 + 1) },
          footerLogo: { bytes: new Uint8Array(0) },
        },
      ),
    );
    expect(refused.status).toBe(400);
    const errors = (refused.data as Failure).fieldErrors;
    expect(errors).toMatchObject({
      primaryLogo: ["This file is not an image we can read. Use a JPG, PNG or WebP file."],
      darkModeLogo: ["The image is larger than 2MB. Choose a smaller one."],
      favicon: ["The favicon must be at least 32 × 32 pixels. Choose a larger, square image."],
      primaryColor: [expect.any(String)],
    });
    // An empty file input is "no new file", as a browser sends it.
    expect(errors?.footerLogo).toBeUndefined();
    expect(await storedRow()).toBeNull();

    // A correct form afterwards saves, and the refused files were never kept.
    const ok = await save(who, settingsForm({}, { favicon: { bytes: await png("#ea580c", 48) } }));
    expect(ok.status).toBe(302);
    const row = present(await storedRow(), "the settings row");
    expect([row.primaryLogo, row.darkModeLogo, row.footerLogo]).toEqual([null, null, null]);
  });

  it("takes no address in place of a file: an image is always one this site stored", async () => {
    const who = await admin();
    for (const address of [
      "https://tracker.example/logo.png",
      "/uploads/brands/0123456789abcdef0123456789abcdef-logo.webp",
    ]) {
      const refused = await save(who, settingsForm({ primaryLogo: address, favicon: address }));
      expect(refused.status).toBe(400);
      expect((refused.data as Failure).fieldErrors).toEqual({
        primaryLogo: ["Choose an image file to upload."],
        favicon: ["Choose an image file to upload."],
      });
    }
    expect(await storedRow()).toBeNull();
  });
});

describe("a store that fails", () => {
  afterEach(() => setStorage(undefined));

  it("says the upload failed on the field and changes nothing", async () => {
    const who = await admin();
    await save(who, settingsForm({ primaryColor: "#111111" }));
    // An S3 endpoint where nothing listens.
    setStorage(
      createS3Storage({
        endpoint: "http://127.0.0.1:9",
        bucket: "none",
        region: "us-east-1",
        accessKeyId: "x",
        secretAccessKey: "x",
      }),
    );
    expectConsoleError(/\[images\] storing the site logo failed/);
    const failed = await save(
      who,
      settingsForm({ primaryColor: "#222222" }, { primaryLogo: { bytes: await png("#0f766e", 300, 100) } }),
    );
    expect(failed.status).toBe(400);
    expect((failed.data as Failure).fieldErrors).toEqual({
      primaryLogo: ["Failed to upload image. Please try again."],
    });
    expect(await storedRow()).toMatchObject({ primaryColor: "#111111", primaryLogo: null });
  });
});

describe("settings that held an address before images were uploads", () => {
  /** The statement of the migration that cleans the image columns, run on rows written the old way. */
  function imageCleanup() {
    const file = fs.readFileSync(path.resolve("drizzle/0008_site_images_and_visitor_stats.sql"), "utf8");
    return present(
      file.split("--> statement-breakpoint").find((statement) => statement.includes("UPDATE")),
      "the migration's update",
    );
  }

  it("keeps an image this site stored as its key and clears addresses elsewhere, so no page loads a third party", async () => {
    await db.insert(siteSettings).values({
      id: 1,
      primaryLogo: "/uploads/settings/0123456789abcdef0123456789abcdef-logo.webp",
      darkModeLogo: "https://cdn.example.com/logo-dark.png",
      favicon: "//tracker.example/favicon.ico",
      footerLogo: "data:image/svg+xml,<svg onload=alert(1)>",
    });
    // Before the migration runs, pages already ignore what is not a stored image.
    const before = await run(rootLoader, getRequest("/"));
    expect((before.data as { site: object }).site).toMatchObject({
      primaryLogo: null,
      darkModeLogo: null,
      favicon: null,
      footerLogo: null,
    });

    await db.execute(sql.raw(imageCleanup()));
    expect(await storedRow()).toMatchObject({
      primaryLogo: "settings/0123456789abcdef0123456789abcdef-logo.webp",
      darkModeLogo: null,
      favicon: null,
      footerLogo: null,
    });
    const after = await run(rootLoader, getRequest("/"));
    expect((after.data as { site: object }).site).toMatchObject({
      primaryLogo: "/uploads/settings/0123456789abcdef0123456789abcdef-logo.webp",
    });
    // The settings form shows the kept image and offers uploads for the rest.
    const who = await admin();
    const form = await run(brandingLoader, getRequest("/admin/settings/branding", who.cookie), {}, who.viewer);
    expect((form.data as { images: object }).images).toEqual({
      primaryLogo: "/uploads/settings/0123456789abcdef0123456789abcdef-logo.webp",
      darkModeLogo: null,
      favicon: null,
      footerLogo: null,
    });
  });

  it("sends /favicon.ico to the product's icon while no favicon is uploaded", async () => {
    const response = (await faviconLoader()) as Response;
    expect([response.status, response.headers.get("location")]).toEqual([302, "/favicon.svg"]);
  });
});

describe("view count and Member Since on public cards", () => {
  /** The card and QR page's data as `cookie` (none: a visitor) gets them. */
  async function numbersSeenBy(username: string, cookie?: string) {
    const headers = new Headers(cookie ? { cookie } : {});
    const card = await run(cardLoader, new Request(`${BASE}/profile/${username}`, { headers }), { username });
    const qr = await run(qrLoader, new Request(`${BASE}/qr/${username}`, { headers }), { username });
    const cardData = card.data as { card: { viewCount: number | null; memberSince: string | null } };
    const qrData = qr.data as { card: { viewCount: number | null } };
    return {
      card: { viewCount: cardData.card.viewCount, memberSince: cardData.card.memberSince },
      qr: qrData.card.viewCount,
      serialized: JSON.stringify([card.data, qr.data]),
    };
  }

  async function setVisitorStats(who: Awaited<ReturnType<typeof admin>>, value: "shown" | "hidden") {
    const result = await save(who, settingsForm({ showStatsToVisitors: value }), "legal");
    expect(result.status).toBe(302);
  }

  it("shows them to visitors by default", async () => {
    const owner = await createMember();
    await db.update(profiles).set({ viewCount: 41 });
    const seen = await numbersSeenBy(owner.profile.username);
    // The visitor's own view is counted as well.
    expect(seen.card.viewCount).toBe(42);
    expect(seen.card.memberSince).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(seen.qr).toBe(42);
  });

  it("gives a card nobody has claimed yet no Member Since: there is no member to date", async () => {
    const prepared = await insertCard({ firstName: "Una", lastName: "Claimed" });
    const seen = await numbersSeenBy(prepared.username);
    expect(seen.card.memberSince).toBeNull();
    expect(seen.card.viewCount).not.toBeNull();
  });

  it("leaves them out of what a visitor receives when the company hides them, while the owner, members and administrators still see them", async () => {
    const who = await admin();
    const owner = await createMember();
    const colleague = await createMember();
    await db.update(profiles).set({ viewCount: 1234 });
    await setVisitorStats(who, "hidden");
    const settings = await run(legalLoader, getRequest("/admin/settings/legal", who.cookie), {}, who.viewer);
    expect((settings.data as { values: { showStatsToVisitors: string } }).values.showStatsToVisitors).toBe("hidden");

    const visitor = await numbersSeenBy(owner.profile.username);
    expect(visitor.card).toEqual({ viewCount: null, memberSince: null });
    expect(visitor.qr).toBeNull();
    // Not in the data at all: neither the number nor the date.
    expect(visitor.serialized).not.toContain("1234");
    expect(visitor.serialized).not.toContain("1,234");
    expect(visitor.serialized).not.toContain('memberSince":"');

    for (const cookie of [owner.cookie, colleague.cookie, who.cookie]) {
      const seen = await numbersSeenBy(owner.profile.username, cookie);
      expect(seen.card.viewCount).toBeGreaterThanOrEqual(1234);
      expect(seen.card.memberSince).not.toBeNull();
      expect(seen.qr).toBeGreaterThanOrEqual(1234);
    }

    await setVisitorStats(who, "shown");
    expect((await numbersSeenBy(owner.profile.username)).card.viewCount).toBeGreaterThanOrEqual(1234);
  });

  it("counts someone whose session cookie is no longer valid as a visitor", async () => {
    const who = await admin();
    await setVisitorStats(who, "hidden");
    const stale = cookieFrom(new Headers({ "set-cookie": "namecard.session_token=expired; Path=/" }));
    const owner = await createMember();
    expect((await numbersSeenBy(owner.profile.username, stale)).card.viewCount).toBeNull();
  });
});
