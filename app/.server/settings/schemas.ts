import { z } from "zod";
import { HEX_COLOR } from "~/lib/color";
import { LEAD_RETENTION_MAX_MONTHS } from "~/lib/leads";
import { FONT_FAMILIES, JOIN_RULES, SECOND_FACTOR_RULES } from "~/lib/settings";
import { DomainListSchema } from "../platform/email-domains";
import {
  EmailSchema,
  LocaleChoiceSchema,
  OptionalTextSchema,
  OptionalUrlSchema,
  PhoneSchema,
  TextSchema,
} from "../platform/validation";

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

// ── Leads (docs/decisions/034-leads.md) ───────────────────────────────────────

const LeadFields = {
  leadRetentionMonths: WholeNumber(
    1,
    LEAD_RETENTION_MAX_MONTHS,
    `Enter a whole number of months from 1 to ${LEAD_RETENTION_MAX_MONTHS}`,
  ),
  adminsSeeLeads: z
    .enum(["", "on"], { message: "Tick the box to let administrators read leads" })
    .optional()
    .transform((value) => value === "on"),
};

// ── Who can join (docs/decisions/024-who-can-join.md) ─────────────────────────

const MAX_JOIN_DOMAINS = 100;

const JoinFields = {
  joinRule: z
    .enum(["", ...JOIN_RULES], { message: "Choose who can join" })
    .optional()
    .transform((value) => (value ? value : null)),
  // Absent means the default list (the administrators' domains); a list cleared on purpose is kept empty.
  joinDomains: DomainListSchema(MAX_JOIN_DOMAINS)
    .optional()
    .transform((domains) => (domains === undefined ? null : domains.join("\n"))),
};

/**
 * The text fields of each settings tab, each saved by its own form (the
 * branding tab's images are files, read apart). An emptied field is stored as
 * empty (null), so an administrator can clear a value on purpose; an empty
 * field then shows its default. A field a tab does not hold is left as it is.
 */
export const GeneralSettingsSchema = z.object({
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
  deactivatedCards: z
    .enum(["", "gone", "brand-website"], { message: "Choose what a deactivated card's address shows" })
    .optional()
    .transform((value) => (value ? value : null)),
  defaultLocale: LocaleChoiceSchema,
});

export const BrandingSettingsSchema = z.object({
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
});

export const LegalSettingsSchema = z.object({
  showStatsToVisitors: z
    .enum(["", "shown", "hidden"], { message: "Choose whether visitors see the numbers" })
    .optional()
    .transform((value) => (value === "shown" ? true : value === "hidden" ? false : null)),
  termsOfService: optional(100_000, "Terms of service", { multiline: true }),
  privacyPolicy: optional(100_000, "Privacy policy", { multiline: true }),
  ...LeadFields,
});

export const InvitationSettingsSchema = z.object(ReminderFields);

export const JoinSettingsSchema = z.object(JoinFields).superRefine((values, context) => {
  // The default rule with no domain would let nobody but administrators and invited people in: say so instead.
  if ((values.joinRule ?? "domains") === "domains" && values.joinDomains === "") {
    context.addIssue({
      code: "custom",
      path: ["joinDomains"],
      message: "List at least one domain, or choose that only invited people can join",
    });
  }
});

/** Who must finish a password sign-in with a second factor (docs/decisions/043-a-second-factor.md). */
export const SecuritySettingsSchema = z.object({
  secondFactorRule: z
    .enum(["", "nobody", ...SECOND_FACTOR_RULES], { message: "Choose who is asked for a second step" })
    .optional()
    .transform((value) => (value === "admins" || value === "everyone" ? value : null)),
});

/** What one tab's form saves: its own fields, the others left as they are. */
export type SettingsInput = Partial<
  z.infer<typeof GeneralSettingsSchema> &
    z.infer<typeof BrandingSettingsSchema> &
    z.infer<typeof LegalSettingsSchema> &
    z.infer<typeof InvitationSettingsSchema> &
    z.infer<typeof JoinSettingsSchema> &
    z.infer<typeof SecuritySettingsSchema>
>;
