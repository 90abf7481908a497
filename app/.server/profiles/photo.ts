import { and, eq, isNull } from "drizzle-orm";
import { db } from "../platform/db/client";
import { profiles } from "../platform/db/schema";
import { ValidationError } from "../platform/errors";
import { type FormImage, type ImageChange, storeFormImage, storeProfilePhoto } from "../platform/images";

/**
 * Stores a new photo for a profile form. A file that is not a usable image is
 * the person's to fix (a field error, nothing saved). A storage failure is not:
 * the rest of the save goes on without the new image, and the caller's message
 * says so.
 */
export async function storeNewPhoto(change: ImageChange): Promise<FormImage> {
  const stored = await storeFormImage(change, storeProfilePhoto, "profile photo");
  if (stored.outcome === "invalid") throw new ValidationError({ photo: [stored.message] });
  return stored;
}

/** The keys photos are stored under (app/.server/platform/images.ts): content-addressed, a WebP and a JPEG. */
const PHOTO_KEY = /^profiles\/[0-9a-f]{32}\.(?:webp|jpg)$/;

/**
 * Whether an uploaded photo (the WebP a card shows, or the JPEG its contact
 * file carries) belongs to a card that is active: a deactivated person's
 * photo is answered no more, and neither is one no card shows.
 */
export async function isPhotoOfActiveCard(key: string): Promise<boolean> {
  // Only what a photo's key can be reaches the database.
  if (!PHOTO_KEY.test(key)) return false;
  const shown = key.replace(/\.jpg$/, ".webp");
  const [row] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(eq(profiles.profilePhoto, shown), isNull(profiles.deactivatedAt)))
    .limit(1);
  return row !== undefined;
}
