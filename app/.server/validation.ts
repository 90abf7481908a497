import { z } from "zod";
import type { FieldErrors } from "~/lib/action-result";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~/lib/limits";
import { ValidationError } from "./errors";

/**
 * The field rules every form shares, written once. They live on the server:
 * the browser validates nothing, so it never downloads the schema library.
 */
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

export function isHttpUrl(value: string) {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && !!url.hostname;
  } catch {
    return false;
  }
}

/** An optional web address; only http(s), so a card never carries a script link. */
export const OptionalUrlSchema = (label: string) =>
  z
    .string()
    .trim()
    .max(300, `${label} is too long`)
    .optional()
    .transform((value) => (value ? value : null))
    .refine((value) => value === null || isHttpUrl(value), { message: `${label} must start with http:// or https://` });

/** A same-site path to return to after signing in; anything else becomes "/". */
export function safeRedirect(target: FormDataEntryValue | string | null | undefined, fallback = "/") {
  if (typeof target !== "string" || !target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) {
    return fallback;
  }
  return target;
}

/** Flattens a zod error to `{ field: [messages] }` for the form. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const result: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "form";
    result[key] = [...(result[key] ?? []), issue.message];
  }
  return result;
}

/** Parses a form's values with a shared schema, or throws the field errors as a ValidationError. */
export function parseForm<Schema extends z.ZodType>(schema: Schema, values: unknown): z.infer<Schema> {
  const parsed = schema.safeParse(values);
  if (!parsed.success) throw new ValidationError(fieldErrors(parsed.error));
  return parsed.data;
}
