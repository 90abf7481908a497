import { eq } from "drizzle-orm";
import { z } from "zod";
import { HEX_COLOR } from "~/lib/color";
import { isHttpUrl, OptionalUrlSchema } from "~/lib/profile-schema";
import { DEFAULT_SETTINGS, type SiteSettings } from "~/lib/settings";
import { db } from "./db/client";
import { FONT_FAMILIES, siteSettings } from "./db/schema";

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

const optional = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} is too long`)
    .optional()
    .transform((value) => (value ? value : null));

/** An image address: an absolute http(s) URL or a path on this site. */
const ImageUrl = (label: string) =>
  optional(500, label).refine((value) => value === null || value.startsWith("/") || isHttpUrl(value), {
    message: `${label} must be an http(s) address or a path starting with /`,
  });

const OptionalColor = (label: string) =>
  optional(7, label).refine((value) => value === null || HEX_COLOR.test(value), {
    message: `${label} must be a colour like #3b82f6`,
  });

/**
 * Every field of the settings form. Unlike the spec's save, an emptied field is
 * stored as empty (null), so an administrator can clear a value on purpose;
 * an empty field then shows its default.
 */
export const SettingsSchema = z.object({
  companyName: optional(80, "Company name"),
  website: OptionalUrlSchema("Website"),
  email: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? value.toLowerCase() : null))
    .refine((value) => value === null || z.email().safeParse(value).success, {
      message: "Enter a valid email address",
    }),
  phone: optional(40, "Phone"),
  description: optional(500, "Description"),
  address: optional(300, "Address"),
  primaryColor: OptionalColor("Primary colour"),
  secondaryColor: OptionalColor("Secondary colour"),
  accentColor: OptionalColor("Accent colour"),
  fontFamily: z
    .string()
    .optional()
    .transform((value) => (value ? value : null))
    .refine((value) => value === null || (FONT_FAMILIES as readonly string[]).includes(value), {
      message: "Choose one of the offered fonts",
    }),
  primaryLogo: ImageUrl("Primary logo"),
  darkModeLogo: ImageUrl("Dark-mode logo"),
  favicon: ImageUrl("Favicon"),
  footerLogo: ImageUrl("Footer logo"),
  termsOfService: optional(100_000, "Terms of service"),
  privacyPolicy: optional(100_000, "Privacy policy"),
});

export type SettingsInput = z.infer<typeof SettingsSchema>;

/** The stored row as the form shows it (empty where nothing is stored). */
export async function getStoredSettings() {
  const [row] = await db.select().from(siteSettings).where(eq(siteSettings.id, 1)).limit(1);
  return row ?? null;
}

/** Update or insert the single row (spec §7 "Settings"). */
export async function saveSiteSettings(values: SettingsInput) {
  await db
    .insert(siteSettings)
    .values({ id: 1, ...values, fontFamily: values.fontFamily as (typeof FONT_FAMILIES)[number] | null })
    .onConflictDoUpdate({
      target: siteSettings.id,
      set: { ...values, fontFamily: values.fontFamily as (typeof FONT_FAMILIES)[number] | null, updatedAt: new Date() },
    });
}
