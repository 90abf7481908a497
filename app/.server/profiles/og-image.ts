import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { FALLBACK_BORDER_COLOR } from "~/lib/settings";
import { env } from "../env";
import { imageWork } from "../image-work";
import { readPhotoJpeg } from "../images";

type OgCard = {
  id: string;
  firstName: string;
  lastName: string;
  title: string | null;
  profilePhoto: string | null;
  updatedAt: Date;
  brand: { name: string; primaryColor: string; secondaryColor: string } | null;
};

const WIDTH = 1200;
const HEIGHT = 630;
const CACHE_DIR = path.join(env.DATA_DIR, "cache", "og");
/** Bumped whenever the drawing changes, so cached images are made again. */
const DESIGN_REVISION = 2;

/**
 * Escapes text for the SVG; characters XML cannot hold (control characters, lone
 * surrogates) are dropped, so no stored value can stop the image from rendering.
 */
function xml(value: string) {
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

function clip(value: string, max: number) {
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

/** Changes whenever what the image shows changes, so it can be cached until then. */
export function ogVersion(card: OgCard): string {
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
      ]),
    )
    .digest("hex")
    .slice(0, 16);
}

async function render(card: OgCard): Promise<Buffer> {
  const from = card.brand?.primaryColor ?? FALLBACK_BORDER_COLOR;
  const to = card.brand?.secondaryColor ?? "#8b5cf6";
  const name = clip(`${card.firstName} ${card.lastName}`.trim(), 28);
  const initials = `${Array.from(card.firstName)[0] ?? ""}${Array.from(card.lastName)[0] ?? ""}`.toUpperCase();
  const photo = await readPhotoJpeg(card.profilePhoto);
  const portrait = photo
    ? `<clipPath id="c"><circle cx="240" cy="315" r="150"/></clipPath>
       <image href="data:image/jpeg;base64,${Buffer.from(photo).toString("base64")}" x="90" y="165" width="300" height="300" clip-path="url(#c)"/>`
    : `<text x="240" y="350" text-anchor="middle" font-size="110" font-weight="700" fill="${xml(from)}">${xml(initials)}</text>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" font-family="Inter, Liberation Sans, Arial, sans-serif">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${xml(from)}"/><stop offset="1" stop-color="${xml(to)}"/></linearGradient></defs>
  <rect width="100%" height="100%" fill="url(#g)"/>
  <circle cx="240" cy="315" r="162" fill="#ffffff" fill-opacity="0.95"/>
  ${portrait}
  <g fill="#ffffff">
    <text x="450" y="${card.title ? 290 : 330}" font-size="68" font-weight="700">${xml(name)}</text>
    ${card.title ? `<text x="450" y="360" font-size="38" fill-opacity="0.92">${xml(clip(card.title, 40))}</text>` : ""}
    ${card.brand ? `<text x="450" y="${card.title ? 420 : 390}" font-size="32" fill-opacity="0.8">${xml(clip(card.brand.name, 44))}</text>` : ""}
  </g>
</svg>`;
  return imageWork(() => sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer());
}

/** Images being drawn: requests for one that is not on disk yet share its drawing. */
const drawing = new Map<string, Promise<Buffer>>();

/** The 1200×630 link-preview image, made once per version and kept on disk. */
export function ogImage(card: OgCard): Promise<Buffer> {
  const file = path.join(CACHE_DIR, `${card.id}-${ogVersion(card)}.png`);
  const inFlight = drawing.get(file);
  if (inFlight) return inFlight;
  const made = readOrDraw(card, file).finally(() => drawing.delete(file));
  drawing.set(file, made);
  return made;
}

async function readOrDraw(card: OgCard, file: string): Promise<Buffer> {
  try {
    return await fs.readFile(file);
  } catch {
    const png = await render(card);
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
