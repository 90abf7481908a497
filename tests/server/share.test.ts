import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { db } from "~/.server/platform/db/client";
import { brands, profiles } from "~/.server/platform/db/schema";
import { env } from "~/.server/platform/env";
import { storeBrandImage } from "~/.server/platform/images";
import { MAX_SIGNATURE_LENGTH } from "~/.server/profiles/signature";
import { loader as shareLoader } from "~/routes/app/share";
import { loader as backgroundLoader } from "~/routes/app/share-background";
import { loader as signatureLoader } from "~/routes/app/share-signature";
import { loader as logoLoader } from "~/routes/brands/logo.png";
import { loader as cardLoader } from "~/routes/profile/$username";
import { loader as iconLoader } from "~/routes/profile/icon.png";
import { loader as manifestLoader } from "~/routes/profile/manifest.webmanifest";
import { hasZbar } from "../support/checkers";
import { createMember, getRequest, present, run } from "./helpers";

/**
 * "Share my card": the e-mail signature that mail programs keep as it is, and
 * the video-call background whose QR code scans, for the signed-in member's
 * own card; a switched-off card has neither.
 */

const HAS_ZBAR = hasZbar();

async function brandWithLogo() {
  const logo = await sharp({ create: { width: 400, height: 120, channels: 3, background: "#0f766e" } })
    .png()
    .toBuffer();
  const key = await storeBrandImage(new Uint8Array(logo), "logo");
  const [brand] = await db
    .insert(brands)
    .values({ name: "Northwind & <Partners>", primaryColor: "#0f766e", secondaryColor: "#115e59", logo: key })
    .returning();
  return present(brand, "the brand");
}

async function memberWithCard(values: Partial<typeof profiles.$inferInsert>) {
  const member = await createMember();
  if (Object.keys(values).length) await db.update(profiles).set(values).where(eq(profiles.id, member.profile.id));
  return member;
}

async function responseOf(loader: (args: never) => unknown, url: string, viewer: unknown) {
  const answer = await run(loader, getRequest(url), {}, viewer as never);
  return answer;
}

describe("the e-mail signature", () => {
  it("is tables and inline styles only, with absolute links and sized images, escaped, and only what the card shows to anyone", async () => {
    const brand = await brandWithLogo();
    const member = await memberWithCard({
      firstName: '<script>alert("x")</script>',
      lastName: 'O"Brien & Sons',
      title: "Head of <b>Sales</b>",
      department: "Sales",
      phone: "+44 20 7946 0958",
      linkedinUrl: "https://www.linkedin.com/in/obrien",
      companyBrandId: brand.id,
      // The phone is for colleagues only: a mail goes anywhere.
      fieldVisibility: { phone: "colleagues" },
      visibilityChoices: { phone: "colleagues" },
    });
    const page = await responseOf(shareLoader, "/share", member.viewer);
    expect(page.status).toBe(200);
    const { html, text } = (page.data as { signature: { html: string; text: string } }).signature;

    expect(html.length).toBeLessThan(MAX_SIGNATURE_LENGTH);
    expect(html).not.toMatch(/<style|<script|<svg|\sclass=|<div/i);
    expect(html).toMatch(/^<table/);
    for (const [, href] of html.matchAll(/href="([^"]*)"/g)) {
      expect(href).toMatch(new RegExp(`^(https://|mailto:|tel:|${env.PUBLIC_URL.replace(/[.:/]/g, "\\$&")})`));
    }
    const images = [...html.matchAll(/<img [^>]*>/g)].map(([tag]) => tag);
    expect(images.length).toBeGreaterThan(0);
    for (const tag of images) expect(tag).toMatch(/ width="\d+" height="\d+" alt="[^"]+"/);
    expect(html).toContain(`${env.PUBLIC_URL}/brands/${brand.id}/logo.png`);
    // Nothing typed reaches the markup as markup.
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(html).toContain("Northwind &amp; &lt;Partners&gt;");
    expect(html).not.toContain("7946");
    expect(text).not.toContain("7946");
    expect(text).toContain(`My digital card: ${env.PUBLIC_URL}/profile/`);

    const logo = (await logoLoader({ params: { id: String(brand.id) } } as never)) as Response;
    expect(logo.headers.get("content-type")).toBe("image/png");
    const size = await sharp(Buffer.from(await logo.arrayBuffer())).metadata();
    expect(size.height).toBeGreaterThan(0);
    expect(((await logoLoader({ params: { id: "999999" } } as never)) as Response).status).toBe(404);
  });

  it("downloads as an HTML file whose policy lets only its styles and images in", async () => {
    const member = await memberWithCard({ title: "Engineer" });
    const answer = await responseOf(signatureLoader, "/share/signature.html?download", member.viewer);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-disposition")).toContain("email-signature.html");
    expect(answer.headers.get("content-security-policy")).toContain("default-src 'none'");
  });
});

describe("the video-call background", () => {
  it("comes at 1920×1080 and 1280×720, with the middle left clear", async () => {
    const member = await memberWithCard({ title: "Product designer" });
    for (const [width, height] of [
      [1920, 1080],
      [1280, 720],
    ] as const) {
      const answer = (await backgroundLoader({
        request: getRequest(`/share/background-${width}.png`),
        params: {},
        context: contextWith(member.viewer),
      } as never)) as Response;
      const png = Buffer.from(await answer.arrayBuffer());
      expect(await sharp(png).metadata()).toMatchObject({ width, height, format: "png" });
      // The middle third, where the person sits, holds only the brand's smooth gradient: no edge of a
      // letter or code, which would stand out from the same region blurred.
      const region = {
        left: Math.round(width / 3),
        top: Math.round(height / 6),
        width: Math.round(width / 3),
        height: Math.round((height * 2) / 3),
      };
      const exact = await sharp(png).extract(region).removeAlpha().raw().toBuffer();
      const blurred = await sharp(png).extract(region).removeAlpha().blur(8).raw().toBuffer();
      let largest = 0;
      for (let index = 0; index < exact.length; index++) {
        largest = Math.max(largest, Math.abs((exact[index] ?? 0) - (blurred[index] ?? 0)));
      }
      expect(largest, `${width}: the sharpest detail in the middle`).toBeLessThan(16);
    }
  });

  it.skipIf(!HAS_ZBAR)(
    "has a QR code of the card that an independent scanner reads at both sizes and scaled down to a call's tile",
    async () => {
      const member = await memberWithCard({});
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "namecard-background-"));
      for (const [name, width, scaleTo] of [
        ["1920", 1920, 1920],
        ["1280", 1280, 1280],
        ["1920", 1920, 640],
      ] as const) {
        const answer = (await backgroundLoader({
          request: getRequest(`/share/background-${name}.png`),
          params: {},
          context: contextWith(member.viewer),
        } as never)) as Response;
        const file = path.join(dir, `${width}-${scaleTo}.png`);
        await sharp(Buffer.from(await answer.arrayBuffer()))
          .resize(scaleTo)
          .png()
          .toFile(file);
        const decoded = execFileSync("zbarimg", ["--raw", "-q", file], { stdio: ["ignore", "pipe", "ignore"] })
          .toString()
          .trim();
        expect(decoded, `${width} scaled to ${scaleTo}`).toBe(
          `${env.PUBLIC_URL}/profile/${member.profile.username}?src=qr`,
        );
      }
    },
  );

  it("answers 410 for a card an administrator switched off, as the signature does", async () => {
    const member = await memberWithCard({});
    await db.update(profiles).set({ deactivatedAt: new Date() }).where(eq(profiles.id, member.profile.id));
    for (const [loader, url] of [
      [backgroundLoader, "/share/background-1920.png"],
      [signatureLoader, "/share/signature.html"],
    ] as const) {
      const answer = await responseOf(loader, url, member.viewer);
      expect(answer.status, url).toBe(410);
    }
  });
});

describe("the card on a phone's home screen", () => {
  it("has a manifest that opens the card full screen, with its brand's icon at the sizes phones ask for", async () => {
    const brand = await brandWithLogo();
    const member = await memberWithCard({ firstName: "Hana", lastName: "Home", companyBrandId: brand.id });
    const base = `/profile/${member.profile.username}`;
    const answer = (await manifestLoader({ params: { username: member.profile.username } } as never)) as Response;
    expect(answer.headers.get("content-type")).toBe("application/manifest+json; charset=utf-8");
    const manifest = await answer.json();
    expect(manifest).toMatchObject({
      name: "Hana Home",
      short_name: "Hana",
      start_url: base,
      display: "standalone",
      theme_color: expect.stringMatching(/^#[0-9a-f]{6}$/i),
    });
    for (const icon of manifest.icons as { src: string; sizes: string }[]) {
      const size = Number(icon.sizes.split("x")[0]);
      const png = (await iconLoader({
        params: { username: member.profile.username },
        request: getRequest(icon.src),
      } as never)) as Response;
      expect(png.headers.get("content-type")).toBe("image/png");
      const meta = await sharp(Buffer.from(await png.arrayBuffer())).metadata();
      expect([meta.width, meta.height], icon.src).toEqual([size, size]);
    }
    // Only the owner's own card page links to it: a visitor's page is the same for everyone.
    const own = await run(cardLoader, getRequest(base, member.cookie), { username: member.profile.username });
    expect((own.data as { viewer: { isOwner: boolean } }).viewer.isOwner).toBe(true);
  });

  it("answers 410 for a card an administrator switched off", async () => {
    const member = await memberWithCard({});
    await db.update(profiles).set({ deactivatedAt: new Date() }).where(eq(profiles.id, member.profile.id));
    for (const loader of [manifestLoader, iconLoader]) {
      const answer = await run(loader, getRequest(`/profile/${member.profile.username}/icon-192.png`), {
        username: member.profile.username,
      });
      expect(answer.status).toBe(410);
    }
  });
});

function contextWith(viewer: unknown) {
  return { get: () => viewer } as never;
}
