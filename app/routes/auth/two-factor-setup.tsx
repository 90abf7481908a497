import { ShieldCheck } from "lucide-react";
import { data, Form, redirect, useNavigation, useSearchParams } from "react-router";
import { cookieHeaders } from "~/.server/http/auth";
import { getOptionalViewer, getSecondFactorDue } from "~/.server/http/authz";
import { APP_ON, authenticatorStep, type FactorAnswer, factorsOf, ownerOf } from "~/.server/http/factors";
import { readForm } from "~/.server/http/form-data";
import { redirectWithToast } from "~/.server/http/toast";
import { safeRedirect } from "~/.server/platform/validation";
import { AuthShell } from "~/components/auth-shell";
import { PasswordStep, ScanStep } from "~/components/authenticator-setup";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import type { Route } from "./+types/two-factor-setup";

export const meta: Route.MetaFunction = () => [{ title: "Set up a second step" }];

const PASSKEY_FIRST =
  "This account has a passkey: sign out, sign in with the passkey, then set up the app on your Security page.";

type SetupData = FactorAnswer;

/**
 * Where a password sign-in lands when the company asks the account for a second
 * factor and it has none yet (docs/decisions/043-a-second-factor.md): nothing
 * else opens until an authenticator app is set up, or the person signs out.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const due = await getSecondFactorDue(request);
  if (!due) throw redirect((await getOptionalViewer(request)) ? "/" : "/auth");
  return { email: due.user.email };
}

export async function action({ request }: Route.ActionArgs) {
  const due = await getSecondFactorDue(request);
  if (!due) throw redirect("/");
  const owner = ownerOf(due);
  // A password alone never adds a factor beside a passkey: the passkey is the way in (its owner's proof).
  if ((await factorsOf(due.user.id)).passkeys.length > 0) {
    return data<SetupData>({ formError: PASSKEY_FIRST }, { status: 409 });
  }
  const form = await readForm(request);
  const step = await authenticatorStep(request, owner, form);
  if ("on" in step) {
    return redirectWithToast(
      safeRedirect(form.get("redirectTo")),
      { text: APP_ON },
      { headers: cookieHeaders(step.on) },
    );
  }
  return data<SetupData>(step.body, { status: step.status });
}

export default function TwoFactorSetup({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [params] = useSearchParams();
  const redirectTo = params.get("redirectTo") ?? "";
  const shown = actionData as SetupData | undefined;
  return (
    <AuthShell>
      <div className="mb-6 space-y-2">
        <h1 className="text-3xl font-semibold tracking-tight">Set up a second step</h1>
        <p className="text-slate-600 dark:text-slate-400">
          When <strong className="break-all">{loaderData.email}</strong> signs in with a password, your company asks for
          a code from an authenticator app as well. Setting it up takes a minute, once.
        </p>
      </div>
      <div className="space-y-6">
        {shown?.formError ? <Alert tone="error">{shown.formError}</Alert> : null}
        {shown?.setup ? (
          <ScanStep setup={shown.setup} errors={shown.fieldErrors?.code} busy={busy} redirectTo={redirectTo} />
        ) : (
          <>
            <p className="flex gap-2 text-sm text-slate-700 dark:text-slate-300">
              <ShieldCheck aria-hidden className="size-5 shrink-0 text-brand-ink" />
              Enter your password again to begin.
            </p>
            <PasswordStep
              errors={shown?.fieldErrors?.password}
              busy={busy}
              submitLabel="Continue"
              redirectTo={redirectTo}
            />
          </>
        )}
        <div className="border-t border-slate-200 pt-4 text-sm text-slate-600 dark:border-slate-800 dark:text-slate-400">
          <p className="mb-2">Have a passkey for this account? Sign out, then sign in with it instead.</p>
          <Form method="post" action="/auth/sign-out">
            <Button type="submit" variant="secondary">
              Sign out
            </Button>
          </Form>
        </div>
      </div>
    </AuthShell>
  );
}
