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

// ── Invitation reminders (their own fieldset on the form) ───────────────────

/** A whole number from `min` to `max`, or nothing (the default). */
const WholeNumber = (min: number, max: number, message: string) =>
  z
    .string({ message })
    .optional()
    .transform((value) => (value?.trim() ? value.trim() : null))
    .refine((value) => value === null || (/^\d{1,6}$/.test(value) && Number(value) >= min && Number(value) <= max), {
      message,
    })
    .transform((value) => (value === null ? null : Number(value)));

const ReminderFields = {
  autoReminders: z
    .enum(["", "on"], { message: "Tick the box to switch automatic reminders on" })
    .optional()
    .transform((value) => value === "on"),
  reminderAfterDays: WholeNumber(1, 365, "Enter a whole number of days from 1 to 365"),
  reminderMaxCount: WholeNumber(1, 10, "Enter a whole number of reminders from 1 to 10"),
};

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
  ...ReminderFields,
});

export type SettingsInput = z.infer<typeof SettingsSchema>;
