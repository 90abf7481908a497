import { z } from "zod";
import { EmailSchema, NameSchema, OptionalTextSchema, PhoneSchema } from "./validation";

/** Spec §5 messages, quoted exactly. */
export const USERNAME_TAKEN = "Username already exists. Please choose a different one.";
export const EMAIL_TAKEN = "Email already exists. Please use a different email address.";

export const UsernameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, "Username is required")
  .max(40, "Username is too long")
  .regex(
    /^[a-z0-9][a-z0-9._-]*$/,
    "Use letters, numbers, dots, dashes or underscores, starting with a letter or number",
  );

/** An optional web address; only http(s), so a card never carries a script link. */
export const OptionalUrlSchema = (label: string) =>
  z
    .string()
    .trim()
    .max(300, `${label} is too long`)
    .optional()
    .transform((value) => (value ? value : null))
    .refine((value) => value === null || isHttpUrl(value), { message: `${label} must start with http:// or https://` });

export function isHttpUrl(value: string) {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && !!url.hostname;
  } catch {
    return false;
  }
}

export const BrandIdSchema = z
  .string()
  .optional()
  .transform((value) => (value ? Number(value) : null))
  .pipe(
    z.number({ message: "Choose a brand from the list" }).int("Choose a brand from the list").positive().nullable(),
  );

/** The fields of a card (spec §5 plus job title), as every profile form sends them. */
export const ProfileFieldsSchema = z.object({
  firstName: NameSchema("First name"),
  lastName: NameSchema("Last name"),
  username: UsernameSchema,
  email: EmailSchema,
  title: OptionalTextSchema(100, "Job title"),
  phone: PhoneSchema,
  bio: OptionalTextSchema(1000, "Bio"),
  linkedinUrl: OptionalUrlSchema("LinkedIn URL"),
  companyBrandId: BrandIdSchema,
});

export type ProfileFields = z.infer<typeof ProfileFieldsSchema>;
