import { z } from "zod";
import { EmailSchema, NameSchema, PasswordSchema, PhoneSchema } from "../validation";

/** The forms of accounts: sign-in, sign-up, and choosing a new password. */
const SignInSchema = z.object({
  intent: z.literal("signin"),
  email: EmailSchema,
  // Sign-in checks presence only: the stored rule decides the rest.
  password: z.string().min(1, "Password is required"),
});

const SignUpSchema = z.object({
  intent: z.literal("signup"),
  firstName: NameSchema("First name"),
  lastName: NameSchema("Last name"),
  email: EmailSchema,
  password: PasswordSchema,
  phone: PhoneSchema,
});

export const AuthSchema = z.discriminatedUnion("intent", [SignInSchema, SignUpSchema]);

export const ForgotPasswordSchema = z.object({ email: EmailSchema });

export const ResetPasswordSchema = z
  .object({
    token: z.string().min(1),
    password: PasswordSchema,
    confirmPassword: z.string(),
  })
  .refine((value) => value.password === value.confirmPassword, {
    message: "The passwords do not match",
    path: ["confirmPassword"],
  });
