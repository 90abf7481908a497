import { StorageError, ValidationError } from "../errors";
import { type ImageChange, ImageError, storeProfilePhoto } from "../images";

/**
 * Stores a new photo. A file that is not a usable image is the person's to fix
 * (a field error). A storage failure is not: the rest of the save goes on
 * without the new image, and `skipped` says so.
 */
export async function storeNewPhoto(change: ImageChange): Promise<{ key?: string; skipped: boolean }> {
  if (change.kind !== "replace") return { skipped: false };
  try {
    return { key: await storeProfilePhoto(change.bytes), skipped: false };
  } catch (error) {
    if (error instanceof ImageError) throw new ValidationError({ photo: [error.message] });
    if (error instanceof StorageError) {
      console.error("[profiles] photo upload failed:", error.cause ?? error);
      return { skipped: true };
    }
    throw error;
  }
}

/** The photo key to store: the new one, none, or the current one. */
export function nextPhotoKey(change: ImageChange, stored: { key?: string }, current: string | null): string | null {
  if (stored.key) return stored.key;
  return change.kind === "remove" ? null : current;
}
