import { data, Form, Link, useNavigation } from "react-router";
import { ForgotPasswordSchema } from "~/.server/accounts/schemas";
import { callAuth } from "~/.server/http/auth";
import { requireAnonymous } from "~/.server/http/authz";
import { readForm } from "~/.server/http/form-data";
import { failure } from "~/.server/http/responses";
import { fieldErrors } from "~/.server/platform/validation";
import { AuthShell, MailSentScreen } from "~/components/auth-shell";
import { Field } from "~/components/forms";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import type { ActionFailure } from "~/lib/action-result";
import type { Route } from "./+types/forgot-password";

export const meta: Route.MetaFunction = () => [{ title: "Reset your password" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request);
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  await requireAnonymous(request);
  const values = { email: String((await readForm(request)).get("email") ?? "") };
  const parsed = ForgotPasswordSchema.safeParse(values);
  if (!parsed.success) return failure(400, { fieldErrors: fieldErrors(parsed.error), values });
  const result = await callAuth(request, "/request-password-reset", { email: parsed.data.email });
  if (!result.ok) {
    // Their company signs them in with its provider: the sign-in page has its button.
    if (result.code === "SSO_REQUIRED") {
      return data<ActionFailure & { ssoRequired?: true }>(
        { formError: result.message, values, ssoRequired: true },
        { status: 400 },
      );
    }
    return failure(result.status === 429 ? 429 : 400, { formError: result.message, values });
  }
  // The same answer whether or not the address has an account.
  return data({ sent: parsed.data.email });
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const failed = actionData && !("sent" in actionData) ? actionData : undefined;
  if (actionData && "sent" in actionData) {
    return (
      <MailSentScreen>
        <p className="text-slate-600 dark:text-slate-400">
          If an account exists for{" "}
          <strong className="break-all text-slate-900 dark:text-slate-100">{actionData.sent}</strong>, we've sent a link
          to choose a new password. It works for one hour.
        </p>
        <Link to="/auth" className="inline-block font-medium text-brand-ink hover:underline">
          Back to sign in
        </Link>
      </MailSentScreen>
    );
  }
  return (
    <AuthShell>
      <div className="mb-8 space-y-2">
        <h1 className="text-3xl font-semibold tracking-tight">Forgot password?</h1>
        <p className="text-slate-600 dark:text-slate-400">
          Enter your email and we'll send you a link to choose a new password.
        </p>
      </div>
      <Form method="post" className="space-y-4" noValidate>
        {failed?.formError ? (
          <Alert tone="error">
            {failed.formError}
            {"ssoRequired" in failed ? (
              <>
                {" "}
                <Link to="/auth" className="font-medium underline">
                  Go to sign in
                </Link>
              </>
            ) : null}
          </Alert>
        ) : null}
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={failed?.values?.email}
          errors={failed?.fieldErrors?.email}
        />
        <Button type="submit" size="lg" className="w-full" disabled={busy}>
          {busy ? "Sending..." : "Send reset link"}
        </Button>
      </Form>
      <p className="mt-6 text-center text-sm">
        <Link to="/auth" className="font-medium text-brand-ink hover:underline">
          Back to sign in
        </Link>
      </p>
    </AuthShell>
  );
}
