import { fullName } from "~/lib/names";

/** What a person reads after a profile write, the same from the member's edit and the dashboard. */
type Named = { firstName: string; lastName: string };

const PHOTO_SKIPPED = "Failed to upload profile image. Profile will be updated without new image.";

export function profileSavedMessage(
  profile: Named,
  photoSkipped: boolean,
  emailChange: { email: string; outcome: "sent" | "too-many" } | null = null,
): string {
  const saved = `Profile updated successfully for ${fullName(profile)}!`;
  const parts = [saved];
  if (photoSkipped) parts.push(PHOTO_SKIPPED);
  if (emailChange?.outcome === "sent") {
    parts.push(`We sent a link to ${emailChange.email}: your card shows that address once you open it.`);
  } else if (emailChange) {
    parts.push(`The email address was not changed: too many links were sent to ${emailChange.email} this hour.`);
  }
  return parts.join(" ");
}

export function profileDeletedMessage(profile: Named): string {
  return `Profile deleted successfully for ${fullName(profile)}.`;
}

export function profileCreatedMessage(profile: Named & { email: string }, photoSkipped: boolean): string {
  const created = `Profile created for ${fullName(profile)}. They can claim it by signing up with ${profile.email}.`;
  return photoSkipped ? `${created} Failed to upload image: the profile was created without a photo.` : created;
}
