import { Field } from "~/components/forms";
import { PASSWORD_MIN_LENGTH } from "~/lib/limits";

type Errors = Record<string, string[] | undefined> | undefined;

/** First and last name side by side, as a new account gives them. */
export function NameFields({
  typed,
  errors,
}: {
  typed: { firstName?: string | null; lastName?: string | null };
  errors: Errors;
}) {
  return (
    <div className="grid grid-cols-2 gap-3">
      <Field
        label="First name"
        name="firstName"
        autoComplete="given-name"
        required
        defaultValue={typed.firstName ?? ""}
        errors={errors?.firstName}
      />
      <Field
        label="Last name"
        name="lastName"
        autoComplete="family-name"
        required
        defaultValue={typed.lastName ?? ""}
        errors={errors?.lastName}
      />
    </div>
  );
}

/** The optional phone number of a new account. */
export function PhoneField({ typed, errors }: { typed: { phone?: string | null }; errors: Errors }) {
  return (
    <Field
      label="Phone (optional)"
      name="phone"
      type="tel"
      autoComplete="tel"
      defaultValue={typed.phone ?? ""}
      errors={errors?.phone}
    />
  );
}

/** A password being chosen: the browser may suggest one, and the hint says what the strength check wants. */
export function NewPasswordField({ label = "Password", errors }: { label?: string; errors: Errors }) {
  return (
    <Field
      label={label}
      name="password"
      type="password"
      autoComplete="new-password"
      required
      minLength={PASSWORD_MIN_LENGTH}
      hint={`At least ${PASSWORD_MIN_LENGTH} characters, hard to guess: a few unrelated words work well, and not your name or email.`}
      errors={errors?.password}
    />
  );
}
