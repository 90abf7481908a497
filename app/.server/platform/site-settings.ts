import { eq } from "drizzle-orm";
import { DEFAULT_SETTINGS, type SiteSettings } from "~/lib/settings";
import { db } from "./db/client";
import { siteSettings } from "./db/schema";
import { cachedValue } from "./read-cache";

/** The settings that name a stored image: its storage key (shown through `mediaUrl`). */
const IMAGE_SETTINGS = new Set<keyof SiteSettings>(["primaryLogo", "darkModeLogo", "favicon", "footerLogo"]);
/** A key our image pipeline gives; anything else (an address elsewhere) is never shown. */
const STORED_IMAGE_KEY = /^[a-z]+\/[0-9a-f]{16,64}(-[a-z0-9]+)?\.(webp|jpg|png)$/;

/** A stored image setting's key, or null for anything else (an address elsewhere is never shown). */
export function storedImageKey(value: string | null | undefined): string | null {
  return value && STORED_IMAGE_KEY.test(value) ? value : null;
}

/**
 * The single settings row merged over the defaults; absent or empty fields fall back.
 * Every page reads it: it is cached until the settings change (app/.server/platform/read-cache.ts).
 */
export async function getSiteSettings(): Promise<SiteSettings> {
  return { ...(await cachedValue("site settings", readSiteSettings)) };
}

async function readSiteSettings(): Promise<SiteSettings> {
  const [row] = await db.select().from(siteSettings).where(eq(siteSettings.id, 1)).limit(1);
  const merged: SiteSettings = { ...DEFAULT_SETTINGS };
  if (!row) return merged;
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof SiteSettings)[]) {
    const value = row[key];
    if (typeof value === "boolean") (merged as Record<string, unknown>)[key] = value;
    if (typeof value !== "string" || value.trim() === "") continue;
    if (IMAGE_SETTINGS.has(key) && !storedImageKey(value)) continue;
    (merged as Record<string, unknown>)[key] = value;
  }
  return merged;
}

/**
 * Whether a visitor who is not signed in sees a card's view count and "Member
 * Since" (signed-in members, the card's owner and administrators always do).
 */
export async function visitorsSeeStats(): Promise<boolean> {
  return (await getSiteSettings()).showStatsToVisitors;
}

/** The stored row as the form shows it (empty where nothing is stored). */
export async function getStoredSettings() {
  const [row] = await db.select().from(siteSettings).where(eq(siteSettings.id, 1)).limit(1);
  return row ?? null;
}
