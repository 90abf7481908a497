import { z } from "zod";
import { HEX_COLOR } from "~/lib/color";
import { FONT_FAMILIES } from "~/lib/settings";
import { isHttpUrl, OptionalUrlSchema } from "../validation";

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
 * Every field of the settings form. An emptied field is
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
