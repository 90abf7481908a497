import { can } from "~/lib/permissions";
import type { FontFamily } from "~/lib/settings";
import type { Actor } from "../authz";
import { db } from "../db/client";
import { siteSettings } from "../db/schema";
import { ForbiddenError, ValidationError } from "../errors";
import { publish } from "../realtime";
import { getStorage } from "../storage";
import type { SettingsInput } from "./schemas";

/** Updates or inserts the single settings row, and tells every open page. */
export async function saveSiteSettings({ actor, values }: { actor: Actor; values: SettingsInput }) {
  if (!can(actor.role, "update:settings:any")) throw new ForbiddenError();
  await assertImagesStored(values);
  const fontFamily = values.fontFamily as FontFamily | null;
  await db
    .insert(siteSettings)
    .values({ id: 1, ...values, fontFamily })
    .onConflictDoUpdate({ target: siteSettings.id, set: { ...values, fontFamily, updatedAt: new Date() } });
  await publish({ kind: "settings", id: "1" });
}

const IMAGE_FIELDS = ["primaryLogo", "darkModeLogo", "favicon", "footerLogo"] as const;

/** Every image address names a file this site stored (the schema has checked its form). */
async function assertImagesStored(values: SettingsInput) {
  const errors: Record<string, string[]> = {};
  for (const field of IMAGE_FIELDS) {
    const value = values[field];
    if (!value) continue;
    const object = await getStorage().get(value.slice("/uploads/".length));
    if (!object) errors[field] = ["No image was uploaded at this address"];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
}
