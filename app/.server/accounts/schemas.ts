import { z } from "zod";
import {
  EmailSchema,
  NameSchema,
  PasswordSchema,
  PhoneSchema,
  safeRedirect,
  TextSchema,
  tooLongMessage,
} from "../platform/validation";

/** The forms of accounts, and the bodies better-auth's endpoints accept: the same field rules for both. */
const SignInSchema = z.object({
  intent: z.literal("signin"),
  email: EmailSchema,
  // Sign-in checks presence only: the stored rule decides the rest.
  password: z.string().min(1, "Enter your password").max(200, "Invalid email or password"),
});

const SignUpSchema = z.object({
  intent: z.literal("signup"),
  firstName: NameSchema("First name"),
  lastName: NameSchema("Last name"),
  email: EmailSchema,
  password: PasswordSchema,
  phone: PhoneSchema,
});

export const AuthSchema = z.discriminatedUnion("intent", [SignInSchema, SignUpSchema], {
  error: "Choose sign in or sign up",
});

/** The check-your-email screen: send the link again, or go back and correct the address. */
export const ResendSchema = z.object({ email: EmailSchema });

export const ForgotPasswordSchema = z.object({ email: EmailSchema });

const ResetTokenSchema = z.string({ message: "This link is invalid or has expired." }).regex(/^[A-Za-z0-9]{10,64}$/, {
  message: "This link is invalid or has expired.",
});

export const ResetPasswordSchema = z
  .object({
    token: ResetTokenSchema,
    password: PasswordSchema,
    confirmPassword: z.string(),
  })
  .refine((value) => value.password === value.confirmPassword, {
    message: "Type the same password in both fields",
    path: ["confirmPassword"],
  });

const LinkTokenSchema = z
  .string({ message: "This link is invalid or has expired." })
  .regex(/^[A-Za-z0-9_-]{20,100}$/, { message: "This link is invalid or has expired." });

/** Finishing a sign-up from the emailed link, in a browser that did not make it. */
export const ConfirmSignUpSchema = z.object({
  token: LinkTokenSchema,
  firstName: NameSchema("First name"),
  lastName: NameSchema("Last name"),
  phone: PhoneSchema,
  password: PasswordSchema,
});

/**
 * Using an invitation's link: a new password when the address has no
 * confirmed account, nothing more when it has one (the card is added to it).
 */
export const AcceptInvitationSchema = z.object({ token: LinkTokenSchema, password: PasswordSchema.optional() });

// ── better-auth's JSON bodies ────────────────────────────────────────────────
// Strict: a field the form does not have is refused, not stored.

const optionalNull = <T extends z.ZodType>(schema: T) => z.preprocess((value) => value ?? undefined, schema);
/** A return address: anything but a same-site path becomes "/". */
const ReturnPath = z
  .unknown()
  .optional()
  .transform((value) => safeRedirect(typeof value === "string" ? value : null));

export const SignUpBodySchema = z.strictObject({
  firstName: NameSchema("First name"),
  lastName: NameSchema("Last name"),
  email: EmailSchema,
  password: PasswordSchema,
  phone: optionalNull(PhoneSchema),
  // Accepted for clients that send it; the stored name is always "first last".
  name: optionalNull(
    TextSchema("Name")
      .pipe(z.string().max(161, tooLongMessage("Name", 161)))
      .optional(),
  ),
  callbackURL: ReturnPath,
  rememberMe: z.boolean().optional(),
});

export const SignInBodySchema = z.strictObject({
  email: EmailSchema,
  password: z
    .string({ message: "Enter your password" })
    .min(1, "Enter your password")
    .max(200, "Invalid email or password"),
  callbackURL: ReturnPath,
  rememberMe: z.boolean().optional(),
});

export const RequestResetBodySchema = z.strictObject({ email: EmailSchema, redirectTo: ReturnPath });

export const ResetBodySchema = z.strictObject({ token: ResetTokenSchema, newPassword: PasswordSchema });

export const ConfirmBodySchema = ConfirmSignUpSchema.strict();

export const ResendBodySchema = z.strictObject({
  email: EmailSchema,
  password: z.string().max(200).optional(),
});

export const AcceptInvitationBodySchema = AcceptInvitationSchema.strict();

export const EmptyBodySchema = z.strictObject({});
