import { eq } from "drizzle-orm";
import { DEFAULT_SETTINGS, type SiteSettings } from "~/lib/settings";
import { db } from "../db/client";
import { siteSettings } from "../db/schema";

/** The single settings row merged over the defaults; absent or empty fields fall back. */
export async function getSiteSettings(): Promise<SiteSettings> {
  const [row] = await db.select().from(siteSettings).where(eq(siteSettings.id, 1)).limit(1);
  const merged: SiteSettings = { ...DEFAULT_SETTINGS };
  if (!row) return merged;
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof SiteSettings)[]) {
    const value = row[key];
    if (typeof value === "string" && value.trim() !== "") {
      (merged as Record<string, unknown>)[key] = value;
    }
  }
  return merged;
}

/** The stored row as the form shows it (empty where nothing is stored). */
export async function getStoredSettings() {
  const [row] = await db.select().from(siteSettings).where(eq(siteSettings.id, 1)).limit(1);
  return row ?? null;
}
