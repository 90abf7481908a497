import { z } from "zod";
import { HEX_COLOR } from "~/lib/color";
import { FONT_FAMILIES } from "~/lib/settings";
import { EmailSchema, OptionalTextSchema, OptionalUrlSchema, PhoneSchema, TextSchema } from "../validation";

const optional = (max: number, label: string, options: { multiline?: boolean } = {}) =>
  OptionalTextSchema(max, label, options);

/** A colour field: a hex colour or nothing, with one message for anything else whatever its length. */
const OptionalColor = (label: string) =>
  TextSchema(label)
    .optional()
    .transform((value) => (value ? value : null))
    .refine((value) => value === null || HEX_COLOR.test(value), { message: "Use a hex colour such as #f97316" });

/**
 * Every text field of the settings form (its images are files, read apart). An emptied field is
 * stored as empty (null), so an administrator can clear a value on purpose;
 * an empty field then shows its default.
 */
export const SettingsSchema = z.object({
  companyName: optional(80, "Company name"),
  website: OptionalUrlSchema("Website"),
  // Empty means none; anything else is an address, with the address's own messages.
  email: z
    .string()
    .optional()
    .transform((value) => (value?.trim() ? value : null))
    .pipe(EmailSchema.nullable()),
  phone: PhoneSchema,
  description: optional(500, "Description", { multiline: true }),
  address: optional(300, "Address", { multiline: true }),
  primaryColor: OptionalColor("Primary colour"),
  secondaryColor: OptionalColor("Secondary colour"),
  accentColor: OptionalColor("Accent colour"),
  fontFamily: z
    .string({ message: "Choose one of the offered fonts" })
    .optional()
    .transform((value) => (value ? value : null))
    .refine((value) => value === null || (FONT_FAMILIES as readonly string[]).includes(value), {
      message: "Choose one of the offered fonts",
    }),
  showStatsToVisitors: z
    .enum(["", "shown", "hidden"], { message: "Choose whether visitors see the numbers" })
    .optional()
    .transform((value) => (value === "shown" ? true : value === "hidden" ? false : null)),
  deactivatedCards: z
    .enum(["", "gone", "brand-website"], { message: "Choose what a deactivated card's address shows" })
    .optional()
    .transform((value) => (value ? value : null)),
  termsOfService: optional(100_000, "Terms of service", { multiline: true }),
  privacyPolicy: optional(100_000, "Privacy policy", { multiline: true }),
});

export type SettingsInput = z.infer<typeof SettingsSchema>;
