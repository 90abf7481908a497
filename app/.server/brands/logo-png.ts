import { eq } from "drizzle-orm";
import sharp from "sharp";
import { db } from "../platform/db/client";
import { brands } from "../platform/db/schema";
import { imageWork } from "../platform/image-work";
import { getStorage } from "../platform/storage";

/**
 * A brand's logo as PNG, for mail programs (Outlook shows no WebP): drawn at
 * twice `height` for sharp screens, no wider than `maxWidth`. Its display size
 * is half its pixels. Null when the brand has no logo or it cannot be read.
 */
export async function brandLogoPng(
  brandId: number,
  height: number,
  maxWidth = 240,
): Promise<{ png: Buffer; width: number; height: number } | null> {
  if (!Number.isSafeInteger(brandId) || brandId < 1) return null;
  const [brand] = await db.select({ logo: brands.logo }).from(brands).where(eq(brands.id, brandId));
  if (!brand?.logo) return null;
  try {
    const stored = await getStorage().get(brand.logo);
    if (!stored) return null;
    const { data, info } = await imageWork(() =>
      sharp(stored.body, { limitInputPixels: 40_000_000 })
        .resize({ height: height * 2, width: maxWidth * 2, fit: "inside", withoutEnlargement: false })
        .png()
        .toBuffer({ resolveWithObject: true }),
    );
    return { png: data, width: Math.round(info.width / 2), height: Math.round(info.height / 2) };
  } catch (error) {
    console.warn(`[brands] the logo of brand ${brandId} could not be read:`, (error as Error).message);
    return null;
  }
}
