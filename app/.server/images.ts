import { createHash } from "node:crypto";
import { eq, or } from "drizzle-orm";
import sharp from "sharp";
import { IMAGE_TOO_LARGE, MAX_IMAGE_BYTES } from "~/lib/limits";
import { db } from "./db/client";
import { brands, profiles } from "./db/schema";
import { StorageError } from "./errors";
import { getStorage } from "./storage";

/** Refuses decompression bombs: a small file that would decode to a huge bitmap. */
const MAX_INPUT_PIXELS = 40_000_000;
const PROFILE_PHOTO_SIZE = 512;

/** What a form asks for an image: keep the stored one, remove it, or replace it with these bytes. */
export type ImageChange = { kind: "keep" } | { kind: "remove" } | { kind: "replace"; bytes: Uint8Array };

/** The file is not an image we accept: the person can fix it by choosing another file. */
export class ImageError extends Error {
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

async function decode(bytes: Uint8Array) {
  if (bytes.byteLength === 0) throw new ImageError("The file is empty.");
  if (bytes.byteLength > MAX_IMAGE_BYTES) throw new ImageError(IMAGE_TOO_LARGE);
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

/** The JPEG rendition of a profile photo key, for the vCard. */
export function jpegKeyOf(photoKey: string) {
  return photoKey.replace(/\.webp$/, ".jpg");
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
 * only when no profile or brand refers to it any more.
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
  if (!profileUse && !brandUse) await deleteImage(key);
}
