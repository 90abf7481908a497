import { eq } from "drizzle-orm";
import { data } from "react-router";
import { z } from "zod";
import { type ProfileFields, ProfileFieldsSchema, UsernameSchema } from "~/lib/profile-schema";
import { type FieldErrors, fieldErrors } from "~/lib/validation";
import { requirePermission, type Viewer } from "./authz";
import { db } from "./db/client";
import { profiles } from "./db/schema";
import { formText } from "./form-data";
import { deleteImageIfUnused, ImageError, storeProfilePhoto } from "./images";
import { checkProfileFields, uniqueViolationErrors } from "./profile-update";
import { uniqueUsername, usernameBase } from "./profiles";
import { publish } from "./realtime";

export type AdminActionResult =
  | { ok: true; intent: string; message: string; warning?: string }
  | { ok: false; intent: string; message?: string; errors?: FieldErrors; values?: Record<string, string> };

/**
 * Stores an uploaded photo. A file that is not a usable image is the
 * administrator's to fix (a field error); a storage failure lets the rest of
 * the save go on without the new image (spec §8).
 */
async function uploadPhoto(form: FormData): Promise<{ key?: string; error?: string; warning?: string }> {
  const photo = form.get("photo");
  if (!(photo instanceof File) || photo.size === 0) return {};
  try {
    return { key: await storeProfilePhoto(new Uint8Array(await photo.arrayBuffer())) };
  } catch (error) {
    if (error instanceof ImageError) return { error: error.message };
    console.error("[admin] photo upload failed:", error);
    return { warning: "Failed to upload profile image. Profile will be updated without new image." };
  }
}

const IdSchema = z.object({ id: z.uuid() });

/** 'Edit Profile' in the dashboard: any profile, photo and brand included (spec §6). */
export async function updateProfileAsAdmin(
  viewer: Viewer,
  form: FormData,
): Promise<Response | ReturnType<typeof data<AdminActionResult>>> {
  requirePermission(viewer, "update:profile:any");
  const intent = "update";
  const values = formText(form);
  const id = IdSchema.safeParse(values);
  if (!id.success)
    return data<AdminActionResult>({ ok: false, intent, message: "Failed to update profile. Please try again." }, 400);
  const [current] = await db
    .select({ id: profiles.id, profilePhoto: profiles.profilePhoto, companyBrandId: profiles.companyBrandId })
    .from(profiles)
    .where(eq(profiles.id, id.data.id));
  if (!current)
    return data<AdminActionResult>(
      { ok: false, intent, message: "Failed to update profile: it no longer exists." },
      404,
    );

  const parsed = ProfileFieldsSchema.safeParse(values);
  if (!parsed.success)
    return data<AdminActionResult>({ ok: false, intent, errors: fieldErrors(parsed.error), values }, 400);
  const errors = await checkProfileFields(parsed.data, current);
  if (Object.keys(errors).length) return data<AdminActionResult>({ ok: false, intent, errors, values }, 400);

  const upload = await uploadPhoto(form);
  if (upload.error)
    return data<AdminActionResult>({ ok: false, intent, errors: { photo: [upload.error] }, values }, 400);
  const photoKey = upload.key ?? (form.get("photoRemove") === "1" ? null : current.profilePhoto);
  try {
    await db
      .update(profiles)
      .set({ ...parsed.data, profilePhoto: photoKey })
      .where(eq(profiles.id, current.id));
  } catch (error) {
    if (photoKey !== current.profilePhoto) await deleteImageIfUnused(photoKey);
    const unique = uniqueViolationErrors(error);
    if (unique) return data<AdminActionResult>({ ok: false, intent, errors: unique, values }, 400);
    console.error("[admin] profile update failed:", error);
    return data<AdminActionResult>({ ok: false, intent, message: "Failed to update profile. Please try again." }, 500);
  }
  if (photoKey !== current.profilePhoto) await deleteImageIfUnused(current.profilePhoto);
  await publish({ kind: "profile", id: current.id });
  return data<AdminActionResult>({
    ok: true,
    intent,
    message: `Profile updated successfully for ${parsed.data.firstName} ${parsed.data.lastName}!`,
    warning: upload.warning,
  });
}

/** Deletes a profile, its views and its photo file, after the confirmation in the page. */
export async function deleteProfileAsAdmin(viewer: Viewer, form: FormData) {
  requirePermission(viewer, "delete:profile:any");
  const intent = "delete";
  const id = IdSchema.safeParse(formText(form));
  if (!id.success)
    return data<AdminActionResult>({ ok: false, intent, message: "Failed to delete profile. Please try again." }, 400);
  const [deleted] = await db.delete(profiles).where(eq(profiles.id, id.data.id)).returning({
    id: profiles.id,
    firstName: profiles.firstName,
    lastName: profiles.lastName,
    profilePhoto: profiles.profilePhoto,
  });
  if (!deleted)
    return data<AdminActionResult>(
      { ok: false, intent, message: "Failed to delete profile: it no longer exists." },
      404,
    );
  await deleteImageIfUnused(deleted.profilePhoto);
  await publish({ kind: "profile", id: deleted.id });
  return data<AdminActionResult>({
    ok: true,
    intent,
    message: `Profile deleted successfully for ${deleted.firstName} ${deleted.lastName}.`,
  });
}

/** The create form: username optional (spec §5), the rest as any profile. */
export const CreateProfileSchema = ProfileFieldsSchema.extend({
  username: z
    .union([z.literal("").transform(() => null), UsernameSchema])
    .optional()
    .transform((value) => value ?? null),
});

/**
 * Spec §7 "Create profile": an unclaimed card (no account, no password) that
 * its owner claims by signing up with its address and confirming it.
 */
export async function createUnclaimedProfile(viewer: Viewer, form: FormData) {
  requirePermission(viewer, "create:profile:any");
  const values = formText(form);
  const parsed = CreateProfileSchema.safeParse(values);
  if (!parsed.success) return { ok: false as const, errors: fieldErrors(parsed.error), values };
  // A username the administrator left blank follows spec §5's first.last rule,
  // numbered when taken; one they typed must be free.
  const username =
    parsed.data.username ?? (await uniqueUsername(db, usernameBase(parsed.data.firstName, parsed.data.lastName)));
  const fields: ProfileFields = { ...parsed.data, username };
  const errors = await checkProfileFields(fields, null);
  if (Object.keys(errors).length) return { ok: false as const, errors, values };

  const upload = await uploadPhoto(form);
  if (upload.error) return { ok: false as const, errors: { photo: [upload.error] }, values };
  try {
    const [created] = await db
      .insert(profiles)
      .values({ ...fields, profilePhoto: upload.key ?? null, viewCount: 0, userId: null })
      .returning({
        id: profiles.id,
        email: profiles.email,
        firstName: profiles.firstName,
        lastName: profiles.lastName,
      });
    await publish({ kind: "profile", id: created!.id });
    return { ok: true as const, profile: created!, warning: upload.warning };
  } catch (error) {
    await deleteImageIfUnused(upload.key);
    const unique = uniqueViolationErrors(error);
    if (unique) return { ok: false as const, errors: unique, values };
    throw error;
  }
}
