import { can } from "~/lib/permissions";
import type { FontFamily } from "~/lib/settings";
import type { Actor } from "../authz";
import { db } from "../db/client";
import { siteSettings } from "../db/schema";
import { ForbiddenError } from "../errors";
import { publish } from "../realtime";
import type { SettingsInput } from "./schemas";

/** Updates or inserts the single settings row, and tells every open page. */
export async function saveSiteSettings({ actor, values }: { actor: Actor; values: SettingsInput }) {
  if (!can(actor.role, "update:settings:any")) throw new ForbiddenError();
  const fontFamily = values.fontFamily as FontFamily | null;
  await db
    .insert(siteSettings)
    .values({ id: 1, ...values, fontFamily })
    .onConflictDoUpdate({ target: siteSettings.id, set: { ...values, fontFamily, updatedAt: new Date() } });
  await publish({ kind: "settings", id: "1" });
}
