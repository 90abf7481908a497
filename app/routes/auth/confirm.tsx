import { MailCheck } from "lucide-react";
import { Form, Link, redirect, useNavigation } from "react-router";
import { pendingSignUp } from "~/.server/accounts/confirm-sign-up";
import { ConfirmSignUpSchema } from "~/.server/accounts/schemas";
import { callAuth, cookieHeaders } from "~/.server/http/auth";
import { readForm } from "~/.server/http/form-data";
import { failure } from "~/.server/http/responses";
import { fieldErrors, safeRedirect } from "~/.server/platform/validation";
import { NameFields, NewPasswordField, PhoneField } from "~/components/account-fields";
import { AuthShell, LinkFailedScreen } from "~/components/auth-shell";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { useSite } from "~/lib/site";
import type { Route } from "./+types/confirm";

export const meta: Route.MetaFunction = () => [{ title: "Confirm your email" }];

/**
 * Where a confirmation link lands when it was opened in a browser other than
 * the one that signed up (docs/decisions/009-mailbox-owner-decides.md). The
 * link proves the mailbox; the password must be its owner's too, so it is
 * asked for here: the one chosen at sign-up, or a new one.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const pending = token ? await pendingSignUp(token) : null;
  if (!pending) return { token: "", pending: null };
  return { token, pending };
}

export async function action({ request }: Route.ActionArgs) {
  const form = Object.fromEntries(await readForm(request));
  const values: Record<string, string> = {};
  for (const name of ["firstName", "lastName", "phone"]) {
    if (typeof form[name] === "string") values[name] = form[name];
  }
  const parsed = ConfirmSignUpSchema.safeParse(form);
  if (!parsed.success) return failure(400, { fieldErrors: fieldErrors(parsed.error), values });
  const result = await callAuth<{ redirectTo: string }>(request, "/confirm-email", {
    ...parsed.data,
    phone: parsed.data.phone ?? "",
  });
  if (!result.ok) {
    const status = result.status === 429 ? 429 : 400;
    if (result.fieldErrors) return failure(status, { fieldErrors: result.fieldErrors, values });
    return failure(status, { formError: result.message, values });
  }
  throw redirect(safeRedirect(result.data.redirectTo), { headers: cookieHeaders(result.headers) });
}

export default function ConfirmSignUp({ loaderData, actionData }: Route.ComponentProps) {
  const site = useSite();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { pending, token } = loaderData;
  if (!pending) {
    return (
      <LinkFailedScreen
        problem="The confirmation link is invalid, was already used, or was replaced by a newer one. Only the newest link we sent works."
        advice="Sign up again with the same address to get a new link, or sign in if you have already confirmed it."
        actions={
          <div className="flex flex-wrap gap-4">
            <Link to="/auth?mode=signup" className="font-medium text-brand-ink hover:underline">
              Sign up again
            </Link>
            <Link to="/auth" className="font-medium text-brand-ink hover:underline">
              Go to sign in
            </Link>
          </div>
        }
      />
    );
  }
  const errors = actionData?.fieldErrors;
  const typed = { ...pending, ...actionData?.values };
  return (
    <AuthShell>
      <div className="mb-6 space-y-3">
        <span className="flex size-12 items-center justify-center rounded-full bg-brand/10 text-brand-ink">
          <MailCheck aria-hidden className="size-6" />
        </span>
        <h1 className="text-2xl font-semibold tracking-tight">Finish joining {site.companyName}</h1>
        <p className="text-slate-600 dark:text-slate-400">
          You opened the link for{" "}
          <strong className="break-all text-slate-900 dark:text-slate-100">{pending.email}</strong> on a different
          browser from the one that signed up. Check your details and enter the password you chose, or a new one: the
          password you enter here is the one that signs you in.
        </p>
      </div>
      <Form method="post" className="space-y-4" noValidate>
        <input type="hidden" name="token" value={token} />
        {actionData?.formError ? <Alert tone="error">{actionData.formError}</Alert> : null}
        <NameFields typed={typed} errors={errors} />
        <PhoneField typed={typed} errors={errors} />
        <NewPasswordField errors={errors} />
        <Button type="submit" size="lg" className="w-full" disabled={busy}>
          {busy ? "Confirming..." : "Confirm and sign in"}
        </Button>
      </Form>
    </AuthShell>
  );
}
