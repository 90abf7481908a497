import { z } from "zod";
import {
  EmailSchema,
  MAX_ID,
  NameSchema,
  OptionalTextSchema,
  OptionalUrlSchema,
  PhoneSchema,
  TextSchema,
  tooLongMessage,
} from "../validation";

/** The messages a taken username or address gets, quoted exactly wherever they appear. */
export const USERNAME_TAKEN = "Username already exists. Please choose a different one.";
export const EMAIL_TAKEN = "Email already exists. Please use a different email address.";

const UsernameSchema = TextSchema("Username")
  .transform((value) => value.toLowerCase())
  .pipe(
    z
      .string()
      .min(1, "Enter a username")
      .max(40, tooLongMessage("Username", 40))
      .regex(
        /^[a-z0-9][a-z0-9._-]*$/,
        "Use letters, numbers, dots, dashes or underscores, starting with a letter or number",
      ),
  );

const BrandIdSchema = z
  .string()
  .optional()
  .transform((value) => (value ? (/^[0-9]{1,10}$/.test(value) ? Number(value) : Number.NaN) : null))
  .pipe(
    z
      .number({ message: "Choose a brand from the list" })
      .int("Choose a brand from the list")
      .positive("Choose a brand from the list")
      .max(MAX_ID, "Choose a brand from the list")
      .nullable(),
  );

/** The fields of a card, as every profile form sends them. */
export const ProfileFieldsSchema = z.object({
  firstName: NameSchema("First name"),
  lastName: NameSchema("Last name"),
  username: UsernameSchema,
  email: EmailSchema,
  title: OptionalTextSchema(100, "Job title"),
  phone: PhoneSchema,
  bio: OptionalTextSchema(1000, "Bio", { multiline: true }),
  linkedinUrl: OptionalUrlSchema("LinkedIn URL", "https://www.linkedin.com/in/your-name"),
  companyBrandId: BrandIdSchema,
});

export type ProfileFields = z.infer<typeof ProfileFieldsSchema>;

/** The create form: the username may be left blank, and then follows the first.last rule. */
export const CreateProfileSchema = ProfileFieldsSchema.extend({
  username: z
    .string()
    .optional()
    .transform((value) => (value?.trim() ? value : null))
    .pipe(UsernameSchema.nullable()),
});

export type NewProfileFields = z.infer<typeof CreateProfileSchema>;

/** The id a dashboard form names its profile by. */
export const ProfileIdSchema = z.object({ id: z.uuid() });

/** One of a card's old usernames, to let go of. */
export const ReleaseUsernameSchema = ProfileIdSchema.extend({ username: UsernameSchema });
