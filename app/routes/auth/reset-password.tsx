import { Form, Link, useNavigation } from "react-router";
import { isLiveResetToken } from "~/.server/accounts/reset-tokens";
import { ResetPasswordSchema } from "~/.server/accounts/schemas";
import { callAuth } from "~/.server/http/auth";
import { requireAnonymous } from "~/.server/http/authz";
import { readForm } from "~/.server/http/form-data";
import { failure } from "~/.server/http/responses";
import { redirectWithToast } from "~/.server/http/toast";
import { fieldErrors } from "~/.server/platform/validation";
import { NewPasswordField } from "~/components/account-fields";
import { AuthShell } from "~/components/auth-shell";
import { Field } from "~/components/forms";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import type { Route } from "./+types/reset-password";

export const meta: Route.MetaFunction = () => [{ title: "Choose a new password" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token, invalid: !(await isLiveResetToken(token)) };
}

export async function action({ request }: Route.ActionArgs) {
  await requireAnonymous(request);
  const parsed = ResetPasswordSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    if (errors.token) return failure(400, { formError: "This link is invalid or has expired. Ask for a new one." });
    return failure(400, { fieldErrors: errors });
  }
  const result = await callAuth(request, "/reset-password", {
    token: parsed.data.token,
    newPassword: parsed.data.password,
  });
  if (!result.ok) {
    if (result.fieldErrors) return failure(400, { fieldErrors: result.fieldErrors });
    const formError =
      result.code === "INVALID_TOKEN" ? "This link is invalid or has expired. Ask for a new one." : result.message;
    return failure(result.status === 429 ? 429 : 400, { formError });
  }
  return redirectWithToast("/auth", { text: "Your password was changed. Sign in with your new password." });
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <AuthShell>
      <div className="mb-8 space-y-2">
        <h1 className="text-3xl font-semibold tracking-tight">Choose a new password</h1>
      </div>
      {loaderData.invalid ? (
        <div className="space-y-4">
          <Alert tone="error">This link is invalid or has expired.</Alert>
          <Link to="/auth/forgot-password" className="font-medium text-brand-ink hover:underline">
            Ask for a new link
          </Link>
        </div>
      ) : (
        <Form method="post" className="space-y-4" noValidate>
          <input type="hidden" name="token" value={loaderData.token ?? ""} />
          {actionData?.formError ? <Alert tone="error">{actionData.formError}</Alert> : null}
          <NewPasswordField label="New password" errors={actionData?.fieldErrors} />
          <Field
            label="Confirm new password"
            name="confirmPassword"
            type="password"
            autoComplete="new-password"
            required
            errors={actionData?.fieldErrors?.confirmPassword}
          />
          <Button type="submit" size="lg" className="w-full" disabled={busy}>
            {busy ? "Saving..." : "Save new password"}
          </Button>
        </Form>
      )}
    </AuthShell>
  );
}
