import { z } from "zod";
import { CARD_FIELD_KEYS, CARD_FIELDS, type CardFieldKey, type FieldVisibility, MAX_LINKS } from "~/lib/card-fields";
import { MAX_ID, NameSchema, TextSchema, tooLongMessage } from "../platform/validation";
import { CARD_FIELD_RULES } from "./card-fields";

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

/** A visibility per card field, as the edit form sends it; a field left out keeps its visibility. */
const VisibilityChoicesSchema = z.object(
  Object.fromEntries(
    CARD_FIELD_KEYS.map((key) => [
      key,
      z
        .enum(CARD_FIELDS[key].choices, {
          message: `Choose who sees the ${CARD_FIELDS[key].label.toLowerCase()} from the list`,
        })
        .optional(),
    ]),
  ),
) as unknown as z.ZodType<Partial<FieldVisibility>>;

/** The fields of a card, as every profile form sends them: its identity, then each field of its definition. */
export const ProfileFieldsSchema = z.object({
  firstName: NameSchema("First name"),
  lastName: NameSchema("Last name"),
  username: UsernameSchema,
  companyBrandId: BrandIdSchema,
  ...(Object.fromEntries(Object.entries(CARD_FIELD_RULES).map(([key, rules]) => [key, rules.schema])) as {
    [K in CardFieldKey]: (typeof CARD_FIELD_RULES)[K]["schema"];
  }),
  visibility: VisibilityChoicesSchema.optional(),
  /** The manager's username or email, on administrators' forms only: absent leaves it as it is, empty clears it. */
  manager: TextSchema("Manager")
    .pipe(z.string().max(254, tooLongMessage("Manager", 254)))
    .optional(),
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

/**
 * A profile form's flat values as the schema reads them: `links.N.kind` and
 * `links.N.url` become the list of links (in N's order, at most MAX_LINKS
 * rows read), and `visibility.FIELD` the visibilities chosen.
 */
export function profileFormInput(values: Record<string, string>) {
  const links: { kind: string; url: string }[] = [];
  for (let index = 0; index < MAX_LINKS + 5; index++) {
    const kind = values[`links.${index}.kind`];
    const url = values[`links.${index}.url`];
    if (kind === undefined && url === undefined) continue;
    links.push({ kind: kind ?? "other", url: url ?? "" });
  }
  const visibility = Object.fromEntries(
    CARD_FIELD_KEYS.flatMap((key) => {
      const value = values[`visibility.${key}`];
      return value === undefined ? [] : [[key, value]];
    }),
  );
  return { ...values, links, visibility };
}
