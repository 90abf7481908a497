import { z } from "zod";

/** One place for the rules every form and action shares (house style). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** Spec §2: "JPG, PNG or WebP up to 5MB" — stated on the picker, enforced on the server. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const IMAGE_TOO_LARGE = "The image is larger than 5MB. Choose a smaller one.";

const trimmed = () => z.string().trim();

export const EmailSchema = trimmed()
  .min(1, "Email is required")
  .max(254, "Email is too long")
  .pipe(z.email("Enter a valid email address"))
  .transform((value) => value.toLowerCase());

export const PasswordSchema = z
  .string()
  .min(1, "Password is required")
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

export const NameSchema = (label: string) => trimmed().min(1, `${label} is required`).max(80, `${label} is too long`);

/** An optional text field: empty means null. */
export const OptionalTextSchema = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} is too long`)
    .optional()
    .transform((value) => (value ? value : null));

export const PhoneSchema = z
  .string()
  .trim()
  .max(40, "Phone number is too long")
  .refine((value) => value === "" || /^[+()0-9.\-\s/]{3,}$/.test(value), {
    message: "Enter a phone number with digits, spaces, + ( ) - only",
  })
  .optional()
  .transform((value) => (value ? value : null));

/** A same-site path to return to after signing in; anything else becomes "/". */
export function safeRedirect(target: FormDataEntryValue | string | null | undefined, fallback = "/") {
  if (typeof target !== "string" || !target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) {
    return fallback;
  }
  return target;
}

export type FieldErrors = Record<string, string[] | undefined>;

/** Flattens a zod error to `{ field: [messages] }` for the form. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const result: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "form";
    (result[key] ??= []).push(issue.message);
  }
  return result;
}
