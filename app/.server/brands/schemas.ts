import { z } from "zod";
import { HEX_COLOR } from "~/lib/color";
import { MAX_ID, OptionalUrlSchema, TextSchema } from "../validation";

const Color = (label: string) =>
  TextSchema(label)
    .pipe(z.string().min(1, `${label} is required`).regex(HEX_COLOR, `${label} must be a colour like #3b82f6`))
    .transform((value) => value.toLowerCase());

/** The brand form's fields. */
export const BrandSchema = z.object({
  name: TextSchema("Brand name").pipe(z.string().min(1, "Brand name is required").max(80, "Brand name is too long")),
  primaryColor: Color("Primary colour"),
  secondaryColor: Color("Secondary colour"),
  website: OptionalUrlSchema("Website"),
  active: z
    .string()
    .optional()
    .transform((value) => value === "on" || value === "true" || value === "1"),
});

export type BrandFields = z.infer<typeof BrandSchema>;

/** The id a brand form names its brand by. */
export const BrandIdSchema = z.object({
  id: z
    .string({ message: "Unknown brand" })
    .regex(/^[0-9]{1,10}$/, "Unknown brand")
    .transform(Number)
    .pipe(z.number().int().positive("Unknown brand").max(MAX_ID, "Unknown brand")),
});
