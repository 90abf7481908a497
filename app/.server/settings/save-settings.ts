import { eq } from "drizzle-orm";
import type { FieldErrors } from "~/lib/action-result";
import type { FieldPolicies } from "~/lib/card-fields";
import { can } from "~/lib/permissions";
import type { FontFamily } from "~/lib/settings";
import { changedFields, recordAdminAction } from "../audit/record";
import type { Actor } from "../platform/actor";
import { db } from "../platform/db/client";
import { siteSettings } from "../platform/db/schema";
import { ForbiddenError, ValidationError } from "../platform/errors";
import {
  deleteImageIfUnused,
  type FormImage,
  type ImageChange,
  nextImageKey,
  type SiteImageKind,
  siteImageProblem,
  storedKey,
  storeFormImage,
  storeSiteImage,
} from "../platform/images";
import { publish } from "../platform/realtime";
import { conformCards, policiesFrom } from "../profiles/visibility";
import type { SettingsInput } from "./schemas";

/** The site's own images, each uploaded on the settings form (docs/decisions/015-site-images-are-uploads.md). */
export const SITE_IMAGE_FIELDS = ["primaryLogo", "darkModeLogo", "favicon", "footerLogo"] as const;
type SiteImageField = (typeof SITE_IMAGE_FIELDS)[number];
export type SiteImageChanges = Record<SiteImageField, ImageChange>;

const KIND: Record<SiteImageField, SiteImageKind> = {
  primaryLogo: "logo",
  darkModeLogo: "logo",
  favicon: "favicon",
  footerLogo: "logo",
};

const UPLOAD_FAILED = "Failed to upload image. Please try again.";

/**
 * What is wrong with the files chosen, without storing any: the form reports
 * them together with its text fields' mistakes, in one round.
 */
export async function siteImageErrors(images: SiteImageChanges): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  for (const field of SITE_IMAGE_FIELDS) {
    const change = images[field];
    if (change.kind !== "replace") continue;
    const problem = await siteImageProblem(change.bytes, KIND[field]);
    if (problem) errors[field] = [problem];
  }
  return errors;
}

/**
 * Updates or inserts the single settings row with one tab's fields (and the images), and tells every
 * open page. A file that cannot be used, or a store that fails, changes nothing.
 */
export async function saveSiteSettings({
  actor,
  values,
  images,
  fieldPolicies,
}: {
  actor: Actor;
  /** One tab's fields; a field not given is left as it is. */
  values: SettingsInput;
  /** The site's images, from the tab that holds them; absent leaves them as they are. */
  images?: SiteImageChanges;
  /** Who sees each card field by default, and which are locked; absent leaves them as they are. */
  fieldPolicies?: FieldPolicies | null;
}) {
  if (!can(actor.role, "update:settings:any")) throw new ForbiddenError();
  const [current] = await db.select().from(siteSettings).where(eq(siteSettings.id, 1));

  const imageFields: readonly SiteImageField[] = images ? SITE_IMAGE_FIELDS : [];
  const stored = {} as Record<SiteImageField, FormImage>;
  for (const field of imageFields) {
    stored[field] = await storeFormImage(
      (images as SiteImageChanges)[field],
      (bytes) => storeSiteImage(bytes, KIND[field]),
      `site ${KIND[field]}`,
    );
  }
  const newKeys = () => imageFields.map((field) => storedKey(stored[field]));
  const errors: FieldErrors = {};
  for (const field of imageFields) {
    const outcome = stored[field];
    if (outcome.outcome === "invalid") errors[field] = [outcome.message];
    if (outcome.outcome === "storage-failed") errors[field] = [UPLOAD_FAILED];
  }
  if (Object.keys(errors).length) {
    for (const key of newKeys()) await deleteImageIfUnused(key);
    throw new ValidationError(errors);
  }

  const keys = Object.fromEntries(
    imageFields.map((field) => [
      field,
      nextImageKey((images as SiteImageChanges)[field], stored[field], current?.[field] ?? null),
    ]),
  ) as Partial<Record<SiteImageField, string | null>>;
  const { fontFamily, ...rest } = values;
  const policiesChanged =
    fieldPolicies != null && JSON.stringify(fieldPolicies) !== JSON.stringify(policiesFrom(current?.fieldPolicies));
  const row = {
    ...rest,
    ...keys,
    ...(fontFamily !== undefined ? { fontFamily: fontFamily as FontFamily | null } : {}),
    ...(policiesChanged ? { fieldPolicies } : {}),
  };
  try {
    await db.transaction(async (tx) => {
      await tx
        .insert(siteSettings)
        .values({ id: 1, ...row })
        .onConflictDoUpdate({ target: siteSettings.id, set: { ...row, updatedAt: new Date() } });
      // Every card's visibilities follow at once, each under its brand's template (docs/decisions/028-card-fields-and-visibility.md).
      if (policiesChanged) await conformCards(tx);
      const changes = changedFields(current ?? null, row, SITE_IMAGE_FIELDS);
      if (Object.keys(changes).length > 0) {
        await recordAdminAction(tx, {
          actor,
          action: "settings",
          target: { kind: "settings", id: 1, label: "Site settings" },
          changes,
        });
      }
    });
  } catch (error) {
    for (const key of newKeys()) await deleteImageIfUnused(key);
    throw error;
  }
  // Every instance clears its cached settings and pages now, before anything else can fail (a
  // store that cannot delete an old image), and before an old logo's file is gone.
  await publish({ kind: "settings", id: "1" });
  // The images no setting uses any more.
  for (const field of imageFields) {
    const previous = current?.[field];
    if (previous && previous !== keys[field]) await deleteImageIfUnused(previous);
  }
}
