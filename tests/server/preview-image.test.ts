import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "~/.server/platform/db/client";
import { brands, siteSettings } from "~/.server/platform/db/schema";
import { storeBrandImage } from "~/.server/platform/images";
import { OG_MARGIN } from "~/.server/profiles/og-image";
import { loader as ogPngLoader } from "~/routes/profile/og.png";
import { BASE, insertCard, present } from "./helpers";

const WIDTH = 1200;
const HEIGHT = 630;
const LONG_NAME = ["Maximiliana-Bartholomea", "Featherstonehaugh-Wolfeschlegelsteinhausenbergerdorff"];
const LONG_TITLE =
  "Senior Vice President of International Strategic Partnerships, Enterprise Customer Success and Operational Excellence for Europe";
const LONG_COMPANY = "Northwind Consolidated Holdings International Limited Liability Partnership of Greater Europe";

type Rgb = [number, number, number];

function hex(color: string): Rgb {
  const value = Number.parseInt(color.slice(1), 16);
  return [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
}

async function preview(username: string) {
  const request = new Request(`${BASE}/profile/${username}/og.png`);
  const response = (await ogPngLoader({ params: { username }, request } as never)) as Response;
  expect(response.status).toBe(200);
  const png = Buffer.from(await response.arrayBuffer());
  if (process.env.NAMECARD_KEEP_PREVIEWS)
    await sharp(png).toFile(`${process.env.NAMECARD_KEEP_PREVIEWS}/${username}.png`);
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  expect([info.width, info.height]).toEqual([WIDTH, HEIGHT]);
  const at = (x: number, y: number): Rgb => {
    const i = (y * WIDTH + x) * 3;
    return [data[i]!, data[i + 1]!, data[i + 2]!];
  };
  return { at };
}

/** The background's diagonal gradient at a pixel (SVG's bounding-box gradient from top left to bottom right). */
function gradientAt(from: Rgb, to: Rgb, x: number, y: number): Rgb {
  const t = ((x + 0.5) / WIDTH + (y + 0.5) / HEIGHT) / 2;
  return from.map((c, i) => c + (to[i]! - c) * t) as Rgb;
}

function near(a: Rgb, b: Rgb, tolerance: number) {
  return a.every((c, i) => Math.abs(c - b[i]!) <= tolerance);
}

/** Every pixel closer to an edge than the margin that is not plain background. */
function drawnInMargins(image: { at: (x: number, y: number) => Rgb }, from: Rgb, to: Rgb) {
  const strays: string[] = [];
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const inMargin = x < OG_MARGIN || x >= WIDTH - OG_MARGIN || y < OG_MARGIN || y >= HEIGHT - OG_MARGIN;
      if (inMargin && !near(image.at(x, y), gradientAt(from, to, x, y), 4)) strays.push(`${x},${y}`);
    }
  }
  return strays;
}

afterEach(async () => {
  await db.delete(siteSettings).where(eq(siteSettings.id, 1));
});

describe("the link-preview image", () => {
  it("keeps a very long name, job title and company inside its margins, on the brand's colours with its logo", async () => {
    const logo = await storeBrandImage(
      await sharp({ create: { width: 200, height: 80, channels: 3, background: "#e11d48" } })
        .png()
        .toBuffer(),
      "logo",
    );
    const [brand] = await db
      .insert(brands)
      .values({ name: LONG_COMPANY, primaryColor: "#0b6e4f", secondaryColor: "#134e4a", logo })
      .returning();
    const card = await insertCard({
      firstName: LONG_NAME[0],
      lastName: LONG_NAME[1],
      title: LONG_TITLE,
      companyBrandId: present(brand, "the brand").id,
    });

    const image = await preview(card.username);
    // The brand's colours are the background, corner to corner.
    expect(near(image.at(0, 0), gradientAt(hex("#0b6e4f"), hex("#134e4a"), 0, 0), 4)).toBe(true);
    expect(
      near(image.at(WIDTH - 1, HEIGHT - 1), gradientAt(hex("#0b6e4f"), hex("#134e4a"), WIDTH - 1, HEIGHT - 1), 4),
    ).toBe(true);
    expect(drawnInMargins(image, hex("#0b6e4f"), hex("#134e4a")).slice(0, 10)).toEqual([]);

    // The brand's logo is drawn, and the text is: white letters right of the portrait.
    let logoPixels = 0;
    let textPixels = 0;
    for (let y = OG_MARGIN; y < HEIGHT - OG_MARGIN; y++) {
      for (let x = 440; x < WIDTH - OG_MARGIN; x++) {
        const pixel = image.at(x, y);
        if (near(pixel, hex("#e11d48"), 12)) logoPixels++;
        if (near(pixel, [255, 255, 255], 8)) textPixels++;
      }
    }
    expect(logoPixels).toBeGreaterThan(100 * 30);
    expect(textPixels).toBeGreaterThan(5000);
  });

  it("wears the site's colours when the card has no brand, and a new font gives a new image", async () => {
    await db
      .insert(siteSettings)
      .values({ id: 1, primaryColor: "#7c2d12", secondaryColor: "#1e3a8a", fontFamily: "Inter" });
    const card = await insertCard({ title: LONG_TITLE });
    const inter = await preview(card.username);
    expect(near(inter.at(0, 0), gradientAt(hex("#7c2d12"), hex("#1e3a8a"), 0, 0), 4)).toBe(true);
    expect(drawnInMargins(inter, hex("#7c2d12"), hex("#1e3a8a")).slice(0, 10)).toEqual([]);

    await db.update(siteSettings).set({ fontFamily: "Poppins" }).where(eq(siteSettings.id, 1));
    const poppins = await preview(card.username);
    expect(drawnInMargins(poppins, hex("#7c2d12"), hex("#1e3a8a")).slice(0, 10)).toEqual([]);
    let differing = 0;
    for (let y = OG_MARGIN; y < HEIGHT - OG_MARGIN; y += 2) {
      for (let x = 440; x < WIDTH - OG_MARGIN; x += 2) {
        if (!near(inter.at(x, y), poppins.at(x, y), 8)) differing++;
      }
    }
    expect(differing).toBeGreaterThan(500);
  });

  it("draws Chinese, Japanese, Korean, Arabic and Hebrew in a Latin-only font, broken into lines that stay inside its margins", async () => {
    await db
      .insert(siteSettings)
      .values({ id: 1, primaryColor: "#1d4ed8", secondaryColor: "#0f172a", fontFamily: "Lato" });
    const cards = [
      {
        firstName: "王",
        lastName: "小明",
        title: "高级产品经理兼亚太区国际战略合作伙伴关系与企业客户成功及运营卓越总监",
      },
      { firstName: "山田", lastName: "太郎", title: "シニアプロダクトマネージャー（東京本社）" },
      { firstName: "김", lastName: "민준", title: "수석 소프트웨어 엔지니어, 클라우드 플랫폼 팀" },
      {
        firstName: "محمد",
        lastName: "العلي",
        title: "مدير المبيعات الإقليمي لمنطقة الشرق الأوسط وشمال أفريقيا (MENA)",
      },
      { firstName: "דוד", lastName: "כהן", title: "מנהל מוצר ראשי" },
    ];
    for (const values of cards) {
      const card = await insertCard(values);
      const image = await preview(card.username);
      expect(drawnInMargins(image, hex("#1d4ed8"), hex("#0f172a")).slice(0, 10)).toEqual([]);
      let textPixels = 0;
      for (let y = OG_MARGIN; y < HEIGHT - OG_MARGIN; y += 2) {
        for (let x = 440; x < WIDTH - OG_MARGIN; x += 2) {
          const [r, g, b] = image.at(x, y);
          if (r > 200 && g > 200 && b > 200) textPixels++;
        }
      }
      expect(textPixels, `${values.firstName} ${values.lastName}'s name and title are drawn`).toBeGreaterThan(800);
    }
  });
});
