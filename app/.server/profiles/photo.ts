import { ValidationError } from "../errors";
import { type FormImage, type ImageChange, storeFormImage, storeProfilePhoto } from "../images";

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
