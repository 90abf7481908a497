import { createHash } from "node:crypto";
import { eq, or } from "drizzle-orm";
import sharp from "sharp";
import { IMAGE_TOO_LARGE, MAX_IMAGE_BYTES, MAX_SITE_IMAGE_BYTES, SITE_IMAGE_TOO_LARGE } from "~/lib/limits";
import { db } from "./db/client";
import { brands, profiles, siteSettings } from "./db/schema";
import { StorageError } from "./errors";
import { getStorage } from "./storage";

/** Refuses decompression bombs: a small file that would decode to a huge bitmap. */
const MAX_INPUT_PIXELS = 40_000_000;
const PROFILE_PHOTO_SIZE = 512;

/** What a form asks for an image: keep the stored one, remove it, or replace it with these bytes. */
export type ImageChange = { kind: "keep" } | { kind: "remove" } | { kind: "replace"; bytes: Uint8Array };

/** The file is not an image we accept: the person can fix it by choosing another file. */
class ImageError extends Error {
  override name = "ImageError";
}

/** Writes to the file store; a failure there is ours, never the person's, so it is told apart. */
async function put(key: string, body: Uint8Array, contentType: string) {
  try {
    await getStorage().put(key, body, contentType);
  } catch (error) {
    throw new StorageError(`Storing ${key} failed`, { cause: error });
  }
}

const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp", "heif", "avif", "gif", "tiff"]);

async function decode(bytes: Uint8Array, limit = { bytes: MAX_IMAGE_BYTES, message: IMAGE_TOO_LARGE }) {
  if (bytes.byteLength === 0) throw new ImageError("This file is empty. Choose a JPG, PNG or WebP image.");
  if (bytes.byteLength > limit.bytes) throw new ImageError(limit.message);
  let metadata: Awaited<ReturnType<ReturnType<typeof sharp>["metadata"]>>;
  try {
    metadata = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  } catch {
    throw new ImageError("This file is not an image we can read. Use a JPG, PNG or WebP file.");
  }
  if (!metadata.format || !ACCEPTED_FORMATS.has(metadata.format)) {
    throw new ImageError("This file is not an image we can read. Use a JPG, PNG or WebP file.");
  }
  if ((metadata.width ?? 0) * (metadata.height ?? 0) > MAX_INPUT_PIXELS) {
    throw new ImageError("The image has too many pixels. Use one under 40 megapixels.");
  }
  return metadata;
}

function digest(bytes: Uint8Array) {
  return createHash("sha256").update(bytes).digest("hex").slice(0, 32);
}

/**
 * A profile photo: decoded, turned upright, square-cropped to 512 px and
 * re-encoded without any metadata (GPS included). Stored as WebP for pages and
 * as JPEG for the vCard under one content-addressed key; returns the WebP key.
 */
export async function storeProfilePhoto(bytes: Uint8Array): Promise<string> {
  await decode(bytes);
  const pipeline = () =>
    sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize(PROFILE_PHOTO_SIZE, PROFILE_PHOTO_SIZE, { fit: "cover", position: "attention" });
  let webp: Buffer;
  let jpeg: Buffer;
  try {
    webp = await pipeline().webp({ quality: 82 }).toBuffer();
    jpeg = await pipeline().flatten({ background: "#ffffff" }).jpeg({ quality: 85, mozjpeg: true }).toBuffer();
  } catch {
    throw new ImageError("This image could not be processed. Try another file.");
  }
  const key = `profiles/${digest(webp)}`;
  await put(`${key}.webp`, webp, "image/webp");
  try {
    await put(`${key}.jpg`, jpeg, "image/jpeg");
  } catch (error) {
    // No orphan: a WebP without its JPEG would never be referenced. Another
    // record may already use this content-addressed pair, so ask first.
    await deleteImageIfUnused(`${key}.webp`).catch(() => {});
    throw error;
  }
  return `${key}.webp`;
}

/** A brand logo or cover: kept in proportion, bounded, re-encoded without metadata. */
export async function storeBrandImage(bytes: Uint8Array, kind: "logo" | "cover"): Promise<string> {
  await decode(bytes);
  const [width, height] = kind === "logo" ? [512, 512] : [1600, 600];
  let webp: Buffer;
  try {
    webp = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize(width, height, { fit: kind === "logo" ? "inside" : "cover", withoutEnlargement: kind === "logo" })
      .webp({ quality: 85 })
      .toBuffer();
  } catch {
    throw new ImageError("This image could not be processed. Try another file.");
  }
  const key = `brands/${digest(webp)}-${kind}.webp`;
  await put(key, webp, "image/webp");
  return key;
}

/** The site's own images: logos (the dark-mode and footer logos too) and the favicon. */
export type SiteImageKind = "logo" | "favicon";

/** A favicon smaller than this is a blur in a browser tab and on a phone's home screen. */
const MIN_FAVICON_SIDE = 32;
/** The favicon's square: a phone's home screen wants 180 px, a tab 32; browsers scale it down. */
const FAVICON_SIZE = 192;
/** Logos are drawn at most a few dozen pixels high, on screens up to three times as dense. */
const SITE_LOGO_BOX = [800, 400] as const;

/** Refuses what the site's images cannot use; returns the decoded size. */
async function decodeSiteImage(bytes: Uint8Array, kind: SiteImageKind) {
  const metadata = await decode(bytes, { bytes: MAX_SITE_IMAGE_BYTES, message: SITE_IMAGE_TOO_LARGE });
  // Sizes as shown, after the camera's rotation is applied.
  const upright = (metadata.orientation ?? 1) >= 5;
  const width = (upright ? metadata.height : metadata.width) ?? 0;
  const height = (upright ? metadata.width : metadata.height) ?? 0;
  if (kind === "favicon" && Math.min(width, height) < MIN_FAVICON_SIDE) {
    throw new ImageError(
      `The favicon must be at least ${MIN_FAVICON_SIDE} × ${MIN_FAVICON_SIDE} pixels. Choose a larger, square image.`,
    );
  }
  return { width, height };
}

/**
 * Checks a file for one of the site's images without storing it, so that its
 * message comes in the same round as the other fields' (null when it is fine).
 */
export async function siteImageProblem(bytes: Uint8Array, kind: SiteImageKind): Promise<string | null> {
  try {
    await decodeSiteImage(bytes, kind);
    return null;
  } catch (error) {
    if (error instanceof ImageError) return error.message;
    throw error;
  }
}

/**
 * One of the site's own images, re-encoded without metadata. A logo keeps its
 * proportions and transparency (WebP); the favicon is centred on a transparent
 * square PNG, the format every browser and phone takes as an icon.
 */
export async function storeSiteImage(bytes: Uint8Array, kind: SiteImageKind): Promise<string> {
  const { width, height } = await decodeSiteImage(bytes, kind);
  let body: Buffer;
  try {
    const image = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).rotate();
    if (kind === "favicon") {
      const side = Math.min(FAVICON_SIZE, Math.max(width, height));
      body = await image
        .resize(side, side, { fit: "contain", background: { r: 0, g: 0, b: 0, alpha: 0 } })
        .png({ compressionLevel: 9 })
        .toBuffer();
    } else {
      body = await image
        .resize(SITE_LOGO_BOX[0], SITE_LOGO_BOX[1], { fit: "inside", withoutEnlargement: true })
        .webp({ quality: 90, alphaQuality: 100 })
        .toBuffer();
    }
  } catch {
    throw new ImageError("This image could not be processed. Try another file.");
  }
  const key = kind === "favicon" ? `settings/${digest(body)}-favicon.png` : `settings/${digest(body)}-logo.webp`;
  await put(key, body, kind === "favicon" ? "image/png" : "image/webp");
  return key;
}

/**
 * What storing a form's image came to. A file that is not a usable image is the
 * person's to fix; a store that failed (read-only or full disk, S3 down) is not,
 * and each form words it for its screen.
 */
export type FormImage =
  | { outcome: "unchanged" }
  | { outcome: "stored"; key: string }
  | { outcome: "invalid"; message: string }
  | { outcome: "storage-failed" };

/**
 * The one way every form stores an image (a member's own edit, the
 * administrator's create and edit, the brand form): `store` is the rendition
 * to make, `what` names it in the log.
 */
export async function storeFormImage(
  change: ImageChange,
  store: (bytes: Uint8Array) => Promise<string>,
  what: string,
): Promise<FormImage> {
  if (change.kind !== "replace") return { outcome: "unchanged" };
  try {
    return { outcome: "stored", key: await store(change.bytes) };
  } catch (error) {
    if (error instanceof ImageError) return { outcome: "invalid", message: error.message };
    if (error instanceof StorageError) {
      console.error(`[images] storing the ${what} failed:`, (error.cause as Error | undefined)?.message ?? error);
      return { outcome: "storage-failed" };
    }
    throw error;
  }
}

/** The key a record keeps after a form: the new image, none, or the current one. */
export function nextImageKey(change: ImageChange, stored: FormImage, current: string | null): string | null {
  if (stored.outcome === "stored") return stored.key;
  return change.kind === "remove" ? null : current;
}

/** The key of a newly stored image, to remove again if the record's write fails. */
export function storedKey(stored: FormImage): string | undefined {
  return stored.outcome === "stored" ? stored.key : undefined;
}

/** The JPEG rendition of a profile photo key, for the vCard. */
export function jpegKeyOf(photoKey: string) {
  return photoKey.replace(/\.webp$/, ".jpg");
}

/**
 * The JPEG rendition of a profile photo for files that embed it (the vCard,
 * the preview image). A file that is gone, or a store that cannot be read,
 * means no photo: the file is still useful without it.
 */
export async function readPhotoJpeg(photoKey: string | null | undefined): Promise<Uint8Array | null> {
  if (!photoKey) return null;
  try {
    return (await getStorage().get(jpegKeyOf(photoKey)))?.body ?? null;
  } catch (error) {
    console.warn(`[images] ${jpegKeyOf(photoKey)} could not be read, so it is left out:`, (error as Error).message);
    return null;
  }
}

/** Removes a stored image and its renditions; missing files are fine. */
async function deleteImage(key: string | null | undefined) {
  if (!key) return;
  const storage = getStorage();
  await storage.delete(key);
  if (key.startsWith("profiles/")) await storage.delete(jpegKeyOf(key));
}

/**
 * Keys are content-addressed, so two records may share one file: it is removed
 * only when no profile, brand or site setting refers to it any more.
 */
export async function deleteImageIfUnused(key: string | null | undefined) {
  if (!key) return;
  const [profileUse] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(eq(profiles.profilePhoto, key))
    .limit(1);
  const [brandUse] = await db
    .select({ id: brands.id })
    .from(brands)
    .where(or(eq(brands.logo, key), eq(brands.coverImage, key)))
    .limit(1);
  const [settingUse] = await db
    .select({ id: siteSettings.id })
    .from(siteSettings)
    .where(
      or(
        eq(siteSettings.primaryLogo, key),
        eq(siteSettings.darkModeLogo, key),
        eq(siteSettings.favicon, key),
        eq(siteSettings.footerLogo, key),
      ),
    )
    .limit(1);
  if (!profileUse && !brandUse && !settingUse) await deleteImage(key);
}
