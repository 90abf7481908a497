import { data, Form, Link, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { callAuth, cookieHeaders } from "~/.server/http/auth";
import { requireAnonymous } from "~/.server/http/authz";
import { readForm } from "~/.server/http/form-data";
import { safeRedirect } from "~/.server/platform/validation";
import { adminLinkOf } from "~/.server/sso/admin-link";
import { AuthShell } from "~/components/auth-shell";
import { Field } from "~/components/forms";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import type { Route } from "./+types/confirm-admin";

export const meta: Route.MetaFunction = () => [{ title: "Confirm it's you" }];

const ConfirmSchema = z.object({
  state: z.string().min(1).max(200),
  password: z.string().min(1, "Enter your password").max(200),
});

/**
 * A provider's first sign-in to an administrator's account stops here until the
 * administrator types the account's password, once (app/.server/sso/admin-link.ts).
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request);
  const state = new URL(request.url).searchParams.get("state") ?? "";
  return { state, pending: state ? await adminLinkOf(state) : null };
}

export async function action({ request }: Route.ActionArgs) {
  await requireAnonymous(request);
  const parsed = ConfirmSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return data({ fieldErrors: { password: ["Enter your password"] } }, { status: 400 });
  const result = await callAuth<{ url: string }>(request, "/sso/confirm-admin", parsed.data);
  if (result.ok) throw redirect(safeRedirect(result.data.url), { headers: cookieHeaders(result.headers) });
  if (result.code === "WRONG_PASSWORD") return data({ fieldErrors: { password: [result.message] } }, { status: 400 });
  // Throttled, the form stays for later; any other refusal ends this sign-in.
  return data(
    { formError: result.message, gone: result.code !== "THROTTLED" },
    { status: result.status === 429 ? 429 : 400 },
  );
}

export default function ConfirmAdmin({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { pending, state } = loaderData;
  const refused = actionData && "formError" in actionData ? actionData : null;
  const gone = !pending || refused?.gone;
  return (
    <AuthShell>
      <div className="mb-8 space-y-2">
        <h1 className="text-3xl font-semibold tracking-tight">Confirm it's you</h1>
        {pending ? (
          <p className="text-slate-600 dark:text-slate-400">
            {pending.providerName} wants to sign in to <strong className="break-all">{pending.email}</strong>, an
            administrator's account. Enter this account's Namecard password once to link them; from then on{" "}
            {pending.providerName} signs you in.
          </p>
        ) : null}
      </div>
      {refused ? <Alert tone="error">{refused.formError}</Alert> : null}
      {gone ? (
        <div className="mt-4 space-y-4">
          {refused ? null : (
            <Alert tone="error">This sign-in was started too long ago, in another browser, or was already used.</Alert>
          )}
          <Link to="/auth" className="font-medium text-brand-ink hover:underline">
            Sign in again
          </Link>
        </div>
      ) : (
        <Form method="post" className="mt-4 space-y-4" noValidate>
          <input type="hidden" name="state" value={state} />
          <Field
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            autoFocus
            errors={actionData && "fieldErrors" in actionData ? actionData.fieldErrors.password : undefined}
          />
          <Button type="submit" size="lg" className="w-full" disabled={busy}>
            {busy ? "Checking..." : "Link and sign in"}
          </Button>
        </Form>
      )}
    </AuthShell>
  );
}
