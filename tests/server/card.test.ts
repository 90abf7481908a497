import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import sharp from "sharp";
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushViews } from "~/.server/analytics/views";
import { CLIENT_IP_HEADER } from "~/.server/http/auth";
import { db } from "~/.server/platform/db/client";
import { brands, profiles, profileViews } from "~/.server/platform/db/schema";
import { env } from "~/.server/platform/env";
import { jpegKeyOf, storeBrandImage } from "~/.server/platform/images";
import { cardBackground } from "~/.server/profiles/background";
import { CARD_QR, qrPngEtag, qrTargetUrl } from "~/.server/profiles/qr";
import { action as editAction } from "~/routes/app/profile-edit";
import { loader as cardLoader } from "~/routes/profile/$username";
import { loader as vcardLoader } from "~/routes/profile/contact.vcf";
import { loader as ogPngLoader } from "~/routes/profile/og.png";
import { loader as qrPngLoader } from "~/routes/profile/qr.png";
import { loader as qrPageLoader } from "~/routes/qr/$username";
import { loader as uploadsLoader } from "~/routes/uploads.$";
import { hasVobject, hasZbar, PYTHON } from "../support/checkers";
import { BASE, createMember, getRequest, insertCard, multipartRequest, present, run } from "./helpers";

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";
const UPLOADS = path.join(env.DATA_DIR, "uploads");

const HAS_VOBJECT = hasVobject();
const HAS_ZBAR = hasZbar();

function visit(
  username: string,
  {
    ip = "198.51.100.7",
    agent = BROWSER,
    cookie,
    query = "",
  }: { ip?: string; agent?: string; cookie?: string; query?: string } = {},
) {
  const headers = new Headers({ [CLIENT_IP_HEADER]: ip, "user-agent": agent });
  if (cookie) headers.set("cookie", cookie);
  return run(cardLoader, new Request(`${BASE}/profile/${username}${query}`, { headers }), { username });
}

/** The stored count, once the views counted so far are written (they are written in batches). */
async function viewCount(id: string) {
  await flushViews();
  const [row] = await db.select({ n: profiles.viewCount }).from(profiles).where(eq(profiles.id, id));
  return present(row, "the card").n;
}

function editForm(fields: Record<string, string>, photo?: { bytes: Uint8Array; name: string; type: string }) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  if (photo) form.set("photo", new File([new Uint8Array(photo.bytes)], photo.name, { type: photo.type }));
  return form;
}

const BASE_FIELDS = {
  firstName: "Mem",
  lastName: "Ber",
  email: "",
  username: "",
  title: "",
  phone: "",
  bio: "",
  linkedinUrl: "",
  companyBrandId: "",
};

/** The contact file of a card as a visitor downloads it. */
async function contactFileOf(username: string) {
  const response = (await vcardLoader({
    params: { username },
    request: getRequest(`/profile/${username}/contact.vcf`),
    context: new RouterContextProvider(),
  } as never)) as Response;
  return response.text();
}

describe("the public card", () => {
  it("gives a visitor the card without the owner's account or claim status", async () => {
    const card = await insertCard({ title: "Buyer" });
    const result = await visit(card.username);
    expect(result.status).toBe(200);
    const data = result.data as Record<string, unknown>;
    expect(data.admin).toBeNull();
    expect(data.viewer).toBeNull();
    expect(JSON.stringify(data)).not.toContain("userId");
    expect(data.card).toMatchObject({ firstName: "Zoë", title: "Buyer", viewCount: 1 });
    expect(data.qr).toContain("<svg");
  });

  it("answers 404 with the not-found state for an unknown username", async () => {
    const result = await visit("nobody-here");
    expect(result.status).toBe(404);
  });

  it("shows the administrator whether the card is claimed", async () => {
    const card = await insertCard();
    const admin = await createMember({ email: "admin@example.com" });
    const result = await visit(card.username, { cookie: admin.cookie });
    expect((result.data as { admin: unknown }).admin).toEqual({ claimed: false });
  });
});

describe("view counting", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("counts a visitor once per 30 minutes, records the source, and never counts bots", async () => {
    const card = await insertCard();
    await visit(card.username, { query: "?src=qr" });
    await visit(card.username, { query: "?src=qr" });
    await visit(card.username, { agent: "Googlebot/2.1 (+http://www.google.com/bot.html)", ip: "198.51.100.99" });
    expect(await viewCount(card.id)).toBe(1);
    const views = await db.select().from(profileViews).where(eq(profileViews.profileId, card.id));
    expect(views).toHaveLength(1);
    expect(views[0]).toMatchObject({ source: "qr", viewerUserId: null });
    expect(views[0]?.visitorHash).toMatch(/^[0-9a-f]{32}$/);
    expect(views[0]?.visitorHash).not.toContain("198.51.100.7");

    // Half an hour later the same visitor counts again.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 31 * 60_000 });
    await visit(card.username);
    expect(await viewCount(card.id)).toBe(2);
  });

  it("shows a visitor their own view at once, and the same count when they reload", async () => {
    const card = await insertCard();
    const first = await visit(card.username, { ip: "198.51.100.61" });
    expect((first.data as { card: { viewCount: number } }).card.viewCount).toBe(1);
    const again = await visit(card.username, { ip: "198.51.100.61" });
    expect((again.data as { card: { viewCount: number } }).card.viewCount).toBe(1);
    await flushViews();
    const afterWrite = await visit(card.username, { ip: "198.51.100.61" });
    expect((afterWrite.data as { card: { viewCount: number } }).card.viewCount).toBe(1);
    const other = await visit(card.username, { ip: "198.51.100.62" });
    expect((other.data as { card: { viewCount: number } }).card.viewCount).toBe(2);
  });

  it("stores a view again only when the database has none from that viewer in the window (another instance's)", async () => {
    const card = await insertCard();
    // Another instance counted this visitor a minute ago; this one has not seen them.
    await visit(card.username, { ip: "198.51.100.70" });
    await flushViews();
    const [stored] = await db.select().from(profileViews).where(eq(profileViews.profileId, card.id));
    await db.insert(profileViews).values({
      profileId: card.id,
      visitorHash: present(stored, "the view").visitorHash,
      networkHash: "another network",
      source: "link",
    });
    await db.delete(profileViews).where(eq(profileViews.id, present(stored, "the view").id));
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 31 * 60_000 });
    // In memory the half hour is over, in the database (another instance's row, made just now) it is not.
    await db.update(profileViews).set({ createdAt: new Date(Date.now() - 60_000) });
    await visit(card.username, { ip: "198.51.100.70" });
    await flushViews();
    expect(await db.select().from(profileViews).where(eq(profileViews.profileId, card.id))).toHaveLength(1);
  });

  it("never counts the owner's own visits, but counts another member's", async () => {
    const owner = await createMember();
    const other = await createMember();
    const username = owner.profile.username;
    await visit(username, { cookie: owner.cookie });
    expect(await viewCount(owner.profile.id)).toBe(0);
    const seen = await visit(username, { cookie: other.cookie, query: "?src=directory" });
    expect((seen.data as { viewer: unknown }).viewer).toEqual({ isOwner: false });
    expect(await viewCount(owner.profile.id)).toBe(1);
    const [view] = await db.select().from(profileViews);
    expect(view).toMatchObject({ viewerUserId: other.viewer.user.id, source: "directory", visitorHash: null });
  });

  it("counts at most 20 anonymous views of a card from one network address per half hour, whatever the browser says", async () => {
    const card = await insertCard();
    for (let index = 0; index < 25; index++) {
      await visit(card.username, { ip: "192.0.2.50", agent: `${BROWSER} Variant/${index}` });
    }
    expect(await viewCount(card.id)).toBe(20);
    await visit(card.username, { ip: "192.0.2.51" });
    expect(await viewCount(card.id)).toBe(21);
  });

  it("loses no increment when 200 different visitors open a card at once", async () => {
    const card = await insertCard();
    await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        visit(card.username, { ip: `203.0.${Math.floor(index / 250)}.${index % 250}` }),
      ),
    );
    expect(await viewCount(card.id)).toBe(200);
    const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(profileViews);
    expect(count?.n).toBe(200);
  });
});

describe("the contact file", () => {
  it.skipIf(!HAS_VOBJECT)("is a vCard 3.0 that a strict parser reads back field by field", async () => {
    const [brand] = await db.insert(brands).values({ name: "Café, Crème; & Co" }).returning();
    const bio = "Line one, with a comma; and a semicolon\nLine two — naïve \\ backslash";
    const card = await insertCard({
      firstName: "Zoë",
      lastName: "Laurent-Éluard",
      title: "Directrice générale",
      phone: "+33 1 23 45 67 89",
      bio,
      linkedinUrl: "https://www.linkedin.com/in/zoe",
      companyBrandId: present(brand, "the brand").id,
    });
    const response = await run(vcardLoader, getRequest(`/profile/${card.username}/contact.vcf`), {
      username: card.username,
    });
    expect(response.headers.get("content-type")).toBe("text/vcard; charset=utf-8");
    expect(response.headers.get("content-disposition")).toContain("filename*=UTF-8''Zo%C3%AB_Laurent-%C3%89luard.vcf");
    const raw = await contactFileOf(card.username);
    expect(raw).toMatch(/\r\n$/);
    for (const line of raw.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);

    const parsed = JSON.parse(
      execFileSync(
        PYTHON,
        [
          "-c",
          `import sys, json, vobject
card = vobject.readOne(sys.stdin.read(), validate=True)
print(json.dumps({
  "version": card.version.value, "fn": card.fn.value,
  "family": card.n.value.family, "given": card.n.value.given,
  "email": card.email.value, "tel": card.tel.value, "org": card.org.value,
  "title": card.title.value, "note": card.note.value,
  "urls": [u.value for u in card.contents["url"]],
}))`,
        ],
        { input: raw },
      ).toString(),
    );
    expect(parsed).toEqual({
      version: "3.0",
      fn: "Zoë Laurent-Éluard",
      family: "Laurent-Éluard",
      given: "Zoë",
      email: card.email,
      tel: "+33 1 23 45 67 89",
      org: ["Café, Crème; & Co"],
      title: "Directrice générale",
      note: bio,
      urls: ["https://www.linkedin.com/in/zoe", `${env.PUBLIC_URL}/profile/${card.username}`],
    });
  });

  it.skipIf(!HAS_VOBJECT)(
    "writes a phone extension after the number as ;ext=, which the strict parser keeps",
    async () => {
      const card = await insertCard({ firstName: "Ext", lastName: "Ension", phone: "+49 30 1234 5678 ext. 9999" });
      const raw = await contactFileOf(card.username);
      expect(raw).toContain("\r\nTEL;TYPE=CELL:+49 30 1234 5678;ext=9999\r\n");
      const tel = execFileSync(
        PYTHON,
        ["-c", "import sys, vobject\ncard = vobject.readOne(sys.stdin.read(), validate=True)\nprint(card.tel.value)"],
        { input: raw },
      )
        .toString()
        .trim();
      expect(tel).toBe("+49 30 1234 5678;ext=9999");
    },
  );

  it.skipIf(!HAS_VOBJECT)("embeds the photo as a base64 JPEG that the parser decodes", async () => {
    const member = await createMember({ firstName: "Pic", lastName: "Ture" });
    const bytes = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#22aa66" } })
      .jpeg()
      .toBuffer();
    await run(
      editAction,
      await multipartRequest(
        "/profile/edit",
        editForm(
          {
            ...BASE_FIELDS,
            firstName: "Pic",
            lastName: "Ture",
            email: member.email,
            username: member.profile.username,
          },
          { bytes, name: "p.jpg", type: "image/jpeg" },
        ),
        member,
      ),
      {},
      member.viewer,
    );
    const raw = await contactFileOf(member.profile.username);
    expect(raw).toMatch(/^PHOTO;ENCODING=b;TYPE=JPEG:/m);
    const photo = JSON.parse(
      execFileSync(
        PYTHON,
        [
          "-c",
          "import sys, json, vobject\ncard = vobject.readOne(sys.stdin.read())\ndata = card.photo.value\nprint(json.dumps([data[:3].hex(), len(data)]))",
        ],
        { input: raw },
      ).toString(),
    ) as [string, number];
    expect(photo[0]).toBe("ffd8ff");
    const decoded = await sharp(
      Buffer.from(
        present(raw.split("PHOTO;ENCODING=b;TYPE=JPEG:")[1]?.split("\r\nEND:VCARD")[0], "the photo").replace(
          /\r\n /g,
          "",
        ),
        "base64",
      ),
    ).metadata();
    expect([decoded.format, decoded.width, decoded.height]).toEqual(["jpeg", 512, 512]);
  });

  it("leaves empty fields out", async () => {
    const card = await insertCard();
    const raw = await contactFileOf(card.username);
    for (const name of ["TEL", "ORG", "TITLE", "NOTE", "PHOTO"]) expect(raw).not.toMatch(new RegExp(`^${name}`, "m"));
  });
});

describe("the QR code", () => {
  it.skipIf(!HAS_ZBAR)(
    "decodes with an independent scanner into the card's address, marked as a QR visit",
    async () => {
      const card = await insertCard({ firstName: "Noah", lastName: "Fischer" });
      const response = (await qrPngLoader({
        params: { username: card.username },
        request: getRequest(`/profile/${card.username}/qr.png`),
      } as never)) as Response;
      expect(response.headers.get("content-disposition")).toContain('filename="Noah_Fischer_QR.png"');
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "namecard-qr-")), "qr.png");
      fs.writeFileSync(file, Buffer.from(await response.arrayBuffer()));
      const decoded = execFileSync("zbarimg", ["--raw", "-q", file], { stdio: ["ignore", "pipe", "ignore"] })
        .toString()
        .trim();
      expect(decoded).toBe(`${env.PUBLIC_URL}/profile/${card.username}?src=qr`);
    },
  );
});

describe("the brand in the QR code", () => {
  /** What an independent scanner reads in a PNG. */
  function scan(png: Buffer): string {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "namecard-qr-")), "qr.png");
    fs.writeFileSync(file, png);
    try {
      return execFileSync("zbarimg", ["--raw", "-q", file], { stdio: ["ignore", "pipe", "ignore"] })
        .toString()
        .trim();
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  }

  it.skipIf(!HAS_ZBAR)(
    "carries the brand's logo in every code a card serves, each read by an independent scanner; off, none does",
    async () => {
      // A logo a scanner could mistake for modules: dark, square, with a light cross.
      const drawn = await sharp({ create: { width: 300, height: 300, channels: 3, background: "#0f172a" } })
        .composite([
          { input: { create: { width: 300, height: 60, channels: 3, background: "#ffffff" } }, top: 120, left: 0 },
        ])
        .png()
        .toBuffer();
      const logo = await storeBrandImage(drawn, "logo");
      const [brand] = await db.insert(brands).values({ name: "Logo Co", logo, qrLogo: true }).returning();
      const card = await insertCard({
        firstName: "Lia",
        lastName: "Logo",
        companyBrandId: present(brand, "the brand").id,
      });
      const address = `${env.PUBLIC_URL}/profile/${card.username}?src=qr`;

      const page = await run(cardLoader, getRequest(`/profile/${card.username}`), { username: card.username });
      const qrPage = await run(qrPageLoader, getRequest(`/qr/${card.username}`), { username: card.username });
      for (const [where, svg] of [
        ["card page", (page.data as { qr: string }).qr],
        ["QR page", (qrPage.data as { qr: string }).qr],
      ] as const) {
        expect(svg, where).toContain("<image");
        for (const width of [256, 512]) {
          const png = await sharp(Buffer.from(svg)).resize(width).flatten({ background: "#ffffff" }).png().toBuffer();
          expect(scan(png), `${where} at ${width} px`).toBe(address);
        }
      }
      const download = await fetchImage(qrPngLoader, card.username, "qr.png");
      expect(scan(download.bytes), "the printable PNG").toBe(address);
      for (const width of [1920, 1280] as const) {
        const background = present(await cardBackground(card.username, width), "the background");
        expect(scan(background), `the video-call background at ${width} px`).toBe(address);
      }

      await db
        .update(brands)
        .set({ qrLogo: false })
        .where(eq(brands.id, present(brand, "the brand").id));
      const plain = await run(cardLoader, getRequest(`/profile/${card.username}`), { username: card.username });
      expect((plain.data as { qr: string }).qr).not.toContain("<image");
      const plainDownload = await fetchImage(qrPngLoader, card.username, "qr.png");
      expect(plainDownload.response.headers.get("etag")).not.toBe(download.response.headers.get("etag"));
      expect(scan(plainDownload.bytes)).toBe(address);
    },
  );
});

/** An image route's answer, optionally to a browser that holds a copy named `etag`. */
async function fetchImage(loader: (args: never) => unknown, username: string, file: string, etag?: string) {
  const request = new Request(`${BASE}/profile/${username}/${file}`, {
    headers: etag ? { "if-none-match": etag } : {},
  });
  const response = (await loader({ params: { username }, request } as never)) as Response;
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe("the card's images in browsers' and proxies' caches", () => {
  it("serves the same QR PNG on every request, with a strong ETag and a public Cache-Control", async () => {
    const card = await insertCard();
    const first = await fetchImage(qrPngLoader, card.username, "qr.png");
    const second = await fetchImage(qrPngLoader, card.username, "qr.png");
    expect(first.response.status).toBe(200);
    expect(first.bytes.subarray(1, 4).toString()).toBe("PNG");
    expect(second.bytes.equals(first.bytes)).toBe(true);
    const etag = first.response.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(second.response.headers.get("etag")).toBe(etag);
    expect(first.response.headers.get("cache-control")).toMatch(/^public, max-age=\d+/);
    const { width, height } = await sharp(first.bytes).metadata();
    expect([width, height]).toEqual([1024, 1024]);
  });

  it("answers 304 with no body when the browser's QR copy is current, in any form of If-None-Match", async () => {
    const card = await insertCard();
    const { response } = await fetchImage(qrPngLoader, card.username, "qr.png");
    const etag = response.headers.get("etag") ?? "";
    for (const header of [etag, `"something-else", ${etag}`, `W/${etag}`, "*"]) {
      const again = await fetchImage(qrPngLoader, card.username, "qr.png", header);
      expect(again.response.status).toBe(304);
      expect(again.bytes).toHaveLength(0);
      expect(again.response.headers.get("etag")).toBe(etag);
    }
    const stale = await fetchImage(qrPngLoader, card.username, "qr.png", '"qr-stale"');
    expect(stale.response.status).toBe(200);
    expect(stale.bytes.length).toBeGreaterThan(0);
  });

  it("gives a renamed card's QR code a new ETag, and a new colour a new one too", async () => {
    const card = await insertCard();
    const before = (await fetchImage(qrPngLoader, card.username, "qr.png")).response.headers.get("etag") ?? "";
    const renamed = `${card.username}x`;
    await db.update(profiles).set({ username: renamed }).where(eq(profiles.id, card.id));
    const after = await fetchImage(qrPngLoader, renamed, "qr.png", before);
    expect(after.response.status).toBe(200);
    expect(after.response.headers.get("etag")).not.toBe(before);
    const target = qrTargetUrl(renamed);
    expect(qrPngEtag(target, { ...CARD_QR, dark: "#1e40af" })).not.toBe(qrPngEtag(target, CARD_QR));
    expect(qrPngEtag(target, { ...CARD_QR, width: 512 })).not.toBe(qrPngEtag(target, CARD_QR));
  });

  it("answers 304 for a current preview image, and draws a new one once the card changes", async () => {
    const card = await insertCard({ title: "Before" });
    const first = await fetchImage(ogPngLoader, card.username, "og.png");
    expect(first.response.status).toBe(200);
    const etag = first.response.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await fetchImage(ogPngLoader, card.username, "og.png", etag);
    expect(again.response.status).toBe(304);
    expect(again.bytes).toHaveLength(0);
    await db
      .update(profiles)
      .set({ title: "After", updatedAt: new Date(Date.now() + 1000) })
      .where(eq(profiles.id, card.id));
    const changed = await fetchImage(ogPngLoader, card.username, "og.png", etag);
    expect(changed.response.status).toBe(200);
    expect(changed.response.headers.get("etag")).not.toBe(etag);
    expect(changed.bytes.equals(first.bytes)).toBe(false);
  });
});

describe("editing your own card", () => {
  it("saves the fields, stores empty optionals as null, and changes only the member's own card", async () => {
    const member = await createMember();
    const other = await insertCard({ title: "Untouched" });
    const form = editForm({
      ...BASE_FIELDS,
      email: member.email,
      username: "New.Name",
      title: "Head of Sales",
      // Fields a forged request might add: ignored.
      id: other.id,
      userId: "someone-else",
    });
    const result = await run(editAction, await multipartRequest("/profile/edit", form, member), {}, member.viewer);
    expect(result).toMatchObject({ status: 302, location: "/profile/new.name" });
    const [mine] = await db.select().from(profiles).where(eq(profiles.id, member.profile.id));
    expect(mine).toMatchObject({
      username: "new.name",
      title: "Head of Sales",
      phone: null,
      bio: null,
      linkedinUrl: null,
      companyBrandId: null,
      userId: member.viewer.user.id,
    });
    const [theirs] = await db.select().from(profiles).where(eq(profiles.id, other.id));
    expect(theirs).toMatchObject({ title: "Untouched", userId: null });
  });

  it("completes web addresses typed without https://, and still refuses any other kind of address", async () => {
    const member = await createMember();
    const save = (fields: Record<string, string>) =>
      multipartRequest(
        "/profile/edit",
        editForm({ ...BASE_FIELDS, email: member.profile.email, username: member.profile.username, ...fields }),
        member,
      ).then((request) => run(editAction, request, {}, member.viewer));
    const saved = await save({
      linkedinUrl: "linkedin.com/in/zoe",
      "links.0.kind": "github",
      "links.0.url": "github.com/zoe",
      "links.1.kind": "website",
      "links.1.url": "www.zoe.example/portfolio",
    });
    expect(saved.status).toBe(302);
    const [card] = await db.select().from(profiles).where(eq(profiles.id, member.profile.id));
    expect(card).toMatchObject({
      linkedinUrl: "https://linkedin.com/in/zoe",
      links: [
        { kind: "github", url: "https://github.com/zoe" },
        { kind: "website", url: "https://www.zoe.example/portfolio" },
      ],
    });
    for (const typed of ["javascript:alert(1)", "//evil.example/x", "zoe", "mailto:zoe@example.org"]) {
      expect((await save({ linkedinUrl: typed })).status, typed).toBe(400);
    }
  });

  it("refuses bad input with a message per field and changes nothing", async () => {
    const member = await createMember();
    const taken = await insertCard();
    const [inactive] = await db.insert(brands).values({ name: "Retired", active: false }).returning();
    const before = await db.select().from(profiles).where(eq(profiles.id, member.profile.id));
    const result = await run(
      editAction,
      await multipartRequest(
        "/profile/edit",
        editForm({
          ...BASE_FIELDS,
          firstName: "",
          email: taken.email.toUpperCase(),
          username: taken.username,
          linkedinUrl: "javascript:alert(1)",
          companyBrandId: String(present(inactive, "the retired brand").id),
        }),
        member,
      ),
      {},
      member.viewer,
    );
    expect(result.status).toBe(400);
    const { fieldErrors: errors } = result.data as { fieldErrors: Record<string, string[]> };
    expect(errors.firstName).toEqual(["Enter a first name"]);
    expect(errors.linkedinUrl).toEqual([
      "Enter the whole address, starting with https://, such as https://www.linkedin.com/in/your-name",
    ]);

    const second = await run(
      editAction,
      await multipartRequest(
        "/profile/edit",
        editForm({
          ...BASE_FIELDS,
          email: taken.email.toUpperCase(),
          username: taken.username,
          companyBrandId: String(present(inactive, "the retired brand").id),
        }),
        member,
      ),
      {},
      member.viewer,
    );
    expect((second.data as { fieldErrors: unknown }).fieldErrors).toEqual({
      username: ["Username already exists. Please choose a different one."],
      email: ["Email already exists. Please use a different email address."],
      companyBrandId: ["Choose a brand from the list"],
    });
    expect(await db.select().from(profiles).where(eq(profiles.id, member.profile.id))).toEqual(before);
  });
});

describe("photo uploads", () => {
  async function jpegWithGps() {
    return sharp({ create: { width: 900, height: 600, channels: 3, background: "#3366cc" } })
      .jpeg()
      .withExif({
        IFD0: { Make: "PhoneMaker", Model: "Phone 9" },
        IFD3: {
          GPSLatitudeRef: "N",
          GPSLatitude: "48/1 51/1 2400/100",
          GPSLongitudeRef: "E",
          GPSLongitude: "2/1 21/1 300/100",
        },
      })
      .toBuffer();
  }

  it("stores a square 512 px photo with no metadata left, GPS included, and serves it", async () => {
    const member = await createMember();
    const original = await jpegWithGps();
    expect((await sharp(original).metadata()).exif?.toString("latin1")).toContain("PhoneMaker");

    const result = await run(
      editAction,
      await multipartRequest(
        "/profile/edit",
        editForm(
          { ...BASE_FIELDS, email: member.email, username: member.profile.username },
          { bytes: original, name: "me.jpg", type: "image/jpeg" },
        ),
        member,
      ),
      {},
      member.viewer,
    );
    expect(result.status).toBe(302);
    const [row] = await db
      .select({ key: profiles.profilePhoto })
      .from(profiles)
      .where(eq(profiles.id, member.profile.id));
    const photo = present(row?.key, "the stored photo");
    expect(photo).toMatch(/^profiles\/[0-9a-f]{32}\.webp$/);
    for (const key of [photo, jpegKeyOf(photo)]) {
      const stored = fs.readFileSync(path.join(UPLOADS, key));
      const metadata = await sharp(stored).metadata();
      expect(metadata.exif).toBeUndefined();
      expect(metadata.xmp).toBeUndefined();
      expect(metadata.icc).toBeUndefined();
      expect([metadata.width, metadata.height]).toEqual([512, 512]);
      expect(stored.includes(Buffer.from("PhoneMaker"))).toBe(false);
    }
    const served = (await uploadsLoader({ params: { "*": photo } } as never)) as Response;
    expect(served.headers.get("content-type")).toBe("image/webp");
    // A person's photo is checked again after five minutes: it leaves caches with a deactivated card.
    expect(served.headers.get("cache-control")).toBe("public, max-age=300");
  });

  it("removes the old file when the photo is replaced", async () => {
    const member = await createMember();
    const upload = async (color: string) => {
      const bytes = await sharp({ create: { width: 300, height: 300, channels: 3, background: color } })
        .png()
        .toBuffer();
      await run(
        editAction,
        await multipartRequest(
          "/profile/edit",
          editForm(
            { ...BASE_FIELDS, email: member.email, username: member.profile.username },
            { bytes, name: "p.png", type: "image/png" },
          ),
          member,
        ),
        {},
        member.viewer,
      );
      const [row] = await db
        .select({ key: profiles.profilePhoto })
        .from(profiles)
        .where(eq(profiles.id, member.profile.id));
      return present(row?.key, "the stored photo");
    };
    const first = await upload("#ff0000");
    expect(fs.existsSync(path.join(UPLOADS, first))).toBe(true);
    const second = await upload("#00ff00");
    expect(second).not.toBe(first);
    expect(fs.existsSync(path.join(UPLOADS, first))).toBe(false);
    expect(fs.existsSync(path.join(UPLOADS, jpegKeyOf(first)))).toBe(false);
    expect(fs.existsSync(path.join(UPLOADS, second))).toBe(true);
  });

  it("refuses a text file renamed .png with a clear message and stores nothing", async () => {
    const member = await createMember();
    const result = await run(
      editAction,
      await multipartRequest(
        "/profile/edit",
        editForm(
          { ...BASE_FIELDS, email: member.email, username: member.profile.username },
          { bytes: Buffer.from("just some text, not a picture"), name: "photo.png", type: "image/png" },
        ),
        member,
      ),
      {},
      member.viewer,
    );
    expect(result.status).toBe(400);
    expect((result.data as { fieldErrors: unknown }).fieldErrors).toEqual({
      photo: ["This file is not an image we can read. Use a JPG, PNG or WebP file."],
    });
    // Nothing refers to a stored file (the uploads folder itself is shared with
    // test files running beside this one; debris is tests/server/storage-failures.test.ts).
    const [row] = await db
      .select({ key: profiles.profilePhoto })
      .from(profiles)
      .where(eq(profiles.id, member.profile.id));
    expect(row).toEqual({ key: null });
  });

  it("refuses a 6 MB image with a clear message and stores nothing", async () => {
    const member = await createMember();
    const noise = Buffer.alloc(1500 * 1400 * 3);
    for (let index = 0; index < noise.length; index++) noise[index] = (index * 2654435761) >>> 24;
    const big = await sharp(noise, { raw: { width: 1500, height: 1400, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.byteLength).toBeGreaterThan(6 * 1024 * 1024 - 200_000);
    const result = await run(
      editAction,
      await multipartRequest(
        "/profile/edit",
        editForm(
          { ...BASE_FIELDS, email: member.email, username: member.profile.username },
          { bytes: big, name: "huge.png", type: "image/png" },
        ),
        member,
      ),
      {},
      member.viewer,
    );
    expect(result.status).toBe(413);
    expect((result.data as { fieldErrors: unknown }).fieldErrors).toEqual({
      photo: ["The image is larger than 5MB. Choose a smaller one."],
    });
    // Nothing refers to a stored file (the uploads folder itself is shared with
    // test files running beside this one; debris is tests/server/storage-failures.test.ts).
  });
});

describe("a card's language", () => {
  function visitIn(username: string, acceptLanguage?: string) {
    const headers = new Headers({ [CLIENT_IP_HEADER]: "198.51.100.60", "user-agent": BROWSER });
    if (acceptLanguage) headers.set("accept-language", acceptLanguage);
    return run(cardLoader, new Request(`${BASE}/profile/${username}`, { headers }), { username });
  }

  it("is the brand's for a visitor whose browser asks for none of ours, and the visitor's own otherwise", async () => {
    const member = await createMember({ firstName: "Greta", lastName: "Grün" });
    const [brand] = await db.insert(brands).values({ name: "Grüne Marke", defaultLocale: "de" }).returning();
    await db
      .update(profiles)
      .set({ companyBrandId: present(brand, "the brand").id })
      .where(eq(profiles.id, member.profile.id));
    const { username } = member.profile;

    const swedish = (await visitIn(username, "sv-SE")).data as CardData;
    expect(swedish.language?.locale).toBe("de");
    expect(swedish.language?.messages["actions.saveContact"]).toBe("Kontakt speichern");
    expect(swedish.fallbackDescription).toBe("Digitale Visitenkarte von Greta Grün");
    expect(((await visitIn(username)).data as CardData).language?.locale).toBe("de");
    // A browser that asks for a language of ours gets it: the page's own language is the root's.
    const french = (await visitIn(username, "fr-FR,fr;q=0.9")).data as CardData;
    expect(french.language).toBe(null);
    expect(french.fallbackDescription).toBe("Carte de visite numérique de Greta Grün");

    // A brand that says nothing leaves the card to the company's language.
    await db
      .update(brands)
      .set({ defaultLocale: null })
      .where(eq(brands.id, present(brand, "the brand").id));
    const other = await createMember({ firstName: "Sven", lastName: "Sand" });
    expect(((await visitIn(other.profile.username, "sv-SE")).data as CardData).language).toBe(null);
  });
});

type CardData = { language: { locale: string; messages: Record<string, string> } | null; fallbackDescription: string };
