import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { brandPalette } from "~/lib/color";
import { fullName } from "~/lib/names";
import { FONT_FAMILIES, type FontFamily, type SiteSettings } from "~/lib/settings";
import { env } from "../platform/env";
import { imageWork } from "../platform/image-work";
import { readPhotoJpeg } from "../platform/images";
import { getStorage } from "../platform/storage";
import { face, lineSvg, measure, type TextStyle, wrap } from "./og-text";

type OgCard = {
  id: string;
  firstName: string;
  lastName: string;
  title: string | null;
  profilePhoto: string | null;
  updatedAt: Date;
  brand: { name: string; primaryColor: string; secondaryColor: string; logo: string | null } | null;
};

/** What the image takes from the site: its font, and its colours and logo for a card without a brand. */
export type OgSite = Pick<SiteSettings, "fontFamily" | "primaryColor" | "secondaryColor" | "primaryLogo">;

const WIDTH = 1200;
const HEIGHT = 630;
/** Nothing is drawn closer than this to the image's edges. */
export const OG_MARGIN = 64;
const PORTRAIT_RADIUS = 150;
const RING = 12;
const PORTRAIT_X = OG_MARGIN + PORTRAIT_RADIUS + RING;
const TEXT_X = PORTRAIT_X + PORTRAIT_RADIUS + RING + 56;
const TEXT_WIDTH = WIDTH - OG_MARGIN - TEXT_X;
const LOGO_HEIGHT = 72;
const LOGO_PADDING = 12;
const CACHE_DIR = path.join(env.DATA_DIR, "cache", "og");
/** Bumped whenever the drawing changes, so cached images are made again. */
const DESIGN_REVISION = 4;

/**
 * Escapes text for the SVG; characters XML cannot hold (control characters, lone
 * surrogates) are dropped, so no stored value can stop the image from rendering.
 */
export function xml(value: string) {
  return value
    .replace(
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing what XML cannot hold is what this is for
      /[\u0000-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      "",
    )
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/** The family the settings chose, or the default one. */
export function familyOf(site: OgSite): FontFamily {
  return (FONT_FAMILIES as readonly string[]).includes(site.fontFamily) ? (site.fontFamily as FontFamily) : "Inter";
}

/** The logo the image shows: the brand's, or the site's own upload for a card without a brand. */
function logoKeyOf(card: OgCard, site: OgSite): string | null {
  return uploadedKey(card.brand ? card.brand.logo : site.primaryLogo);
}

/** The stored key of an uploaded image; null for none, or for an address elsewhere, which is never fetched. */
export function uploadedKey(key: string | null | undefined): string | null {
  if (!key || /^[a-z]+:/i.test(key) || key.startsWith("//")) return null;
  return key.replace(/^\/uploads\//, "");
}

/** Changes whenever what the image shows changes, so it can be cached until then. */
export function ogVersion(card: OgCard, site: OgSite): string {
  return createHash("sha256")
    .update(
      JSON.stringify([
        DESIGN_REVISION,
        card.firstName,
        card.lastName,
        card.title,
        card.profilePhoto,
        card.brand,
        card.updatedAt.toISOString(),
        familyOf(site),
        card.brand ? null : [site.primaryColor, site.secondaryColor],
        logoKeyOf(card, site),
      ]),
    )
    .digest("hex")
    .slice(0, 16);
}

/** The logo as a PNG fitted into the logo box, or null when there is none or it cannot be read. */
export async function readLogo(key: string | null): Promise<{ png: Buffer; width: number; height: number } | null> {
  if (!key) return null;
  try {
    const stored = await getStorage().get(key);
    if (!stored) return null;
    const { data, info } = await imageWork(() =>
      sharp(stored.body, { limitInputPixels: 40_000_000 })
        .resize({ height: LOGO_HEIGHT - 2 * LOGO_PADDING, width: 320, fit: "inside" })
        .png()
        .toBuffer({ resolveWithObject: true }),
    );
    return { png: data, width: info.width, height: info.height };
  } catch (error) {
    console.warn(`[og] the logo ${key} could not be read, so it is left out:`, (error as Error).message);
    return null;
  }
}

/** One block of text: its lines, style and the space below it. */
type Block = { lines: string[]; style: TextStyle; lineHeight: number; opacity: number };

async function render(card: OgCard, site: OgSite): Promise<Buffer> {
  const palette = card.brand
    ? brandPalette(card.brand.primaryColor, card.brand.secondaryColor)
    : brandPalette(site.primaryColor, site.secondaryColor);
  const ink = palette.onBanner;
  const family = familyOf(site);
  const name = fullName(card);
  const [first = "", last = ""] = [Array.from(card.firstName)[0], Array.from(card.lastName)[0]];
  // Arabic letters side by side would join into a word; a zero-width non-joiner keeps the two initials apart.
  const initials = `${first}${/\p{sc=Arabic}/u.test(first + last) ? "\u200c" : ""}${last}`.toUpperCase();
  const [bold, regular, photo, logo] = await Promise.all([
    face(family, 700, name, initials),
    face(family, 400, card.title, card.brand?.name),
    readPhotoJpeg(card.profilePhoto),
    readLogo(logoKeyOf(card, site)),
  ]);

  const blocks: Block[] = [];
  const block = (text: string | null | undefined, style: TextStyle, opacity: number) => {
    if (text?.trim())
      blocks.push({ lines: wrap(text, style, TEXT_WIDTH, 2), style, lineHeight: style.size * 1.2, opacity });
  };
  block(name, { face: bold, size: 64 }, 1);
  block(card.title, { face: regular, size: 36 }, 0.92);
  block(card.brand?.name, { face: regular, size: 30 }, 0.85);

  const GAP = 18;
  const logoSpace = logo ? LOGO_HEIGHT + 32 : 0;
  const textHeight = blocks.reduce((sum, b) => sum + b.lines.length * b.lineHeight, 0) + GAP * (blocks.length - 1);
  let y = Math.max(OG_MARGIN, (HEIGHT - textHeight - logoSpace) / 2);
  const parts: string[] = [];
  if (logo) {
    const boxWidth = logo.width + 2 * LOGO_PADDING;
    parts.push(
      `<rect x="${TEXT_X}" y="${y}" width="${boxWidth}" height="${LOGO_HEIGHT}" rx="14" fill="#ffffff"/>`,
      `<image href="data:image/png;base64,${logo.png.toString("base64")}" x="${TEXT_X + LOGO_PADDING}" y="${y + (LOGO_HEIGHT - logo.height) / 2}" width="${logo.width}" height="${logo.height}"/>`,
    );
    y += logoSpace;
  }
  for (const b of blocks) {
    for (const line of b.lines) {
      // The baseline sits at about four fifths of the line box.
      parts.push(
        `<g opacity="${b.opacity}">${lineSvg(line, b.style, TEXT_X, Math.round(y + b.lineHeight * 0.8), ink, xml)}</g>`,
      );
      y += b.lineHeight;
    }
    y += GAP;
  }

  const cy = HEIGHT / 2;
  const portrait = photo
    ? `<clipPath id="c"><circle cx="${PORTRAIT_X}" cy="${cy}" r="${PORTRAIT_RADIUS}"/></clipPath>
       <image href="data:image/jpeg;base64,${Buffer.from(photo).toString("base64")}" x="${PORTRAIT_X - PORTRAIT_RADIUS}" y="${cy - PORTRAIT_RADIUS}" width="${2 * PORTRAIT_RADIUS}" height="${2 * PORTRAIT_RADIUS}" clip-path="url(#c)"/>`
    : initialsSvg(initials, { face: bold, size: 110 }, palette.light.ink, cy);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">
  <defs>
    <linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${palette.from}"/><stop offset="1" stop-color="${palette.to}"/></linearGradient>
    <clipPath id="text"><rect x="${TEXT_X}" y="${OG_MARGIN}" width="${TEXT_WIDTH}" height="${HEIGHT - 2 * OG_MARGIN}"/></clipPath>
  </defs>
  <rect width="100%" height="100%" fill="url(#g)"/>
  <circle cx="${PORTRAIT_X}" cy="${cy}" r="${PORTRAIT_RADIUS + RING}" fill="#ffffff" fill-opacity="0.95"/>
  ${portrait}
  <g clip-path="url(#text)">${parts.join("\n  ")}</g>
</svg>`;
  return imageWork(() => sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer());
}

/** The initials centred in the portrait circle. */
function initialsSvg(initials: string, style: TextStyle, fill: string, cy: number) {
  const width = measure(initials, style);
  return lineSvg(initials, style, PORTRAIT_X - width / 2, Math.round(cy + style.size * 0.36), fill, xml);
}

/** Images being drawn: requests for one that is not on disk yet share its drawing. */
const drawing = new Map<string, Promise<Buffer>>();

/** The 1200×630 link-preview image, made once per version and kept on disk. */
export function ogImage(card: OgCard, site: OgSite): Promise<Buffer> {
  const file = path.join(CACHE_DIR, `${card.id}-${ogVersion(card, site)}.png`);
  const inFlight = drawing.get(file);
  if (inFlight) return inFlight;
  const made = readOrDraw(card, site, file).finally(() => drawing.delete(file));
  drawing.set(file, made);
  return made;
}

async function readOrDraw(card: OgCard, site: OgSite, file: string): Promise<Buffer> {
  try {
    return await fs.readFile(file);
  } catch {
    const png = await render(card, site);
    // A cache only: two requests may render the same image at once, so each
    // writes its own temporary file and renames it; a disk that refuses the
    // write costs the next request a render, never this one its image.
    const temporary = `${file}.${process.pid}-${randomBytes(6).toString("hex")}.tmp`;
    try {
      await fs.mkdir(CACHE_DIR, { recursive: true });
      await fs.writeFile(temporary, png, { flag: "wx" });
      await fs.rename(temporary, file);
    } catch (error) {
      await fs.rm(temporary, { force: true }).catch(() => {});
      console.warn("[og] could not cache the preview image:", (error as Error).message);
    }
    return png;
  }
}
