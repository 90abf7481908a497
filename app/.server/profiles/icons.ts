import sharp from "sharp";
import { brandPalette } from "~/lib/color";
import { brandLogoPng } from "../brands/logo-png";
import { imageWork } from "../platform/image-work";
import { getSiteSettings } from "../platform/site-settings";
import { getCardByUsername } from "./get-card";

/**
 * A card's square icon, for a wallet pass and a phone's home screen: its
 * brand's logo on white, or, for a card without a brand logo, a card drawn in
 * the brand's colour (the site's when it has no brand).
 */

/** A square of `color` with a card drawn on it. */
export function drawnIcon(size: number, color: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 58 58"><rect width="58" height="58" rx="12" fill="${color}"/><rect x="11" y="17" width="36" height="24" rx="4" fill="#ffffff"/><circle cx="21" cy="29" r="5" fill="${color}"/><rect x="30" y="25" width="12" height="3" rx="1.5" fill="${color}"/><rect x="30" y="31" width="9" height="3" rx="1.5" fill="${color}"/></svg>`;
  return imageWork(() => sharp(Buffer.from(svg)).png().toBuffer());
}

/** An image fitted into a square of `background`, as PNG. */
export function squarePng(source: Buffer | Uint8Array, size: number, background: string): Promise<Buffer> {
  return imageWork(() =>
    sharp(source, { limitInputPixels: 40_000_000 })
      .resize(size, size, { fit: "contain", background })
      .flatten({ background })
      .png()
      .toBuffer(),
  );
}

/**
 * Icons drawn, by what they show (a logo's stored key, or a colour) and size:
 * the address is public, so a flood of requests reads the card and no more.
 */
const drawn = new Map<string, Promise<Buffer>>();
const MAX_DRAWN = 300;

/** The home-screen icon of the active card with this username, `size` pixels square; null when there is none. */
export async function cardIcon(username: string, size: number): Promise<Buffer | null> {
  const card = await getCardByUsername(username);
  if (!card) return null;
  const site = card.brand ? null : await getSiteSettings();
  const palette = card.brand
    ? brandPalette(card.brand.primaryColor, card.brand.secondaryColor)
    : brandPalette(site?.primaryColor ?? "#3b82f6", site?.secondaryColor ?? "#8b5cf6");
  const key = `${card.brand?.logo ? `${card.brand.id} ${card.brand.logo}` : palette.light.solid} ${size}`;
  let icon = drawn.get(key);
  if (!icon) {
    if (drawn.size >= MAX_DRAWN) drawn.delete(drawn.keys().next().value as string);
    icon = drawIcon(card.brand?.logo ? card.brand.id : null, palette.light.solid, size);
    icon.catch(() => drawn.delete(key));
    drawn.set(key, icon);
  }
  return icon;
}

async function drawIcon(brandId: number | null, color: string, size: number): Promise<Buffer> {
  const logo = brandId ? await brandLogoPng(brandId, Math.round(size / 3), size) : null;
  if (logo) {
    // The logo with a margin, as home screens crop icons to their own shape.
    const inner = await squarePng(logo.png, Math.round(size * 0.7), "#ffffff");
    return imageWork(() =>
      sharp({ create: { width: size, height: size, channels: 3, background: "#ffffff" } })
        .composite([{ input: inner, gravity: "center" }])
        .png()
        .toBuffer(),
    );
  }
  return drawnIcon(size, color);
}
