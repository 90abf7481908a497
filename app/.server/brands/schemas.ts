import { z } from "zod";
import { HEX_COLOR } from "~/lib/color";
import { DomainListSchema } from "../platform/email-domains";
import { LocaleChoiceSchema, MAX_ID, OptionalUrlSchema, TextSchema, tooLongMessage } from "../platform/validation";

const Color = (label: string) =>
  TextSchema(label)
    .pipe(z.string().min(1, `Choose a ${label.toLowerCase()}`).regex(HEX_COLOR, "Use a hex colour such as #3b82f6"))
    .transform((value) => value.toLowerCase());

const MAX_BRAND_DOMAINS = 50;

/** A checkbox: sent as "on" when ticked, absent when not. */
const Checkbox = z
  .string()
  .optional()
  .transform((value) => value === "on" || value === "true" || value === "1");

/** The brand form's fields. */
export const BrandSchema = z.object({
  name: TextSchema("Brand name").pipe(
    z.string().min(1, "Brand name is required").max(80, tooLongMessage("Brand name", 80)),
  ),
  primaryColor: Color("Primary colour"),
  secondaryColor: Color("Secondary colour"),
  website: OptionalUrlSchema("Website"),
  /** The language of its cards for a visitor whose browser asks for none of ours; empty: the company's. */
  defaultLocale: LocaleChoiceSchema,
  active: Checkbox,
  /** Whether the brand's members may move their own card to another brand. */
  membersChangeBrand: Checkbox,
  /** The e-mail domains whose people belong to the brand; absent leaves them as they are. */
  emailDomains: DomainListSchema(MAX_BRAND_DOMAINS).optional(),
  /** Whether the brand's logo sits in the middle of its cards' QR codes. */
  qrLogo: Checkbox,
  /** Whether people at no brand's domain land in this brand. */
  isDefault: Checkbox,
});

export type BrandFields = z.infer<typeof BrandSchema>;

/** The id a brand form names its brand by. */
export const BrandIdSchema = z.object({
  id: z
    .string({ message: "Choose a brand from the list" })
    .regex(/^[0-9]{1,10}$/, "Choose a brand from the list")
    .transform(Number)
    .pipe(z.number().int().positive("Choose a brand from the list").max(MAX_ID, "Choose a brand from the list")),
});
