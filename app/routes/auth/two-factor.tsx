import { data, Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { z } from "zod";
import { callAuth, cookieHeaders } from "~/.server/http/auth";
import { requireAnonymous } from "~/.server/http/authz";
import { readForm } from "~/.server/http/form-data";
import { safeRedirect } from "~/.server/platform/validation";
import { AuthShell } from "~/components/auth-shell";
import { Field } from "~/components/forms";
import { PasskeySignIn } from "~/components/passkey-button";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import type { Route } from "./+types/two-factor";

export const meta: Route.MetaFunction = () => [{ title: "Second step" }];

/** The cookie better-auth sets when a right password still owes its code. */
const PENDING_COOKIE = /(?:^|;\s*)(?:__Secure-)?namecard\.two_factor=/;

const CodeSchema = z.object({
  intent: z.enum(["code", "recovery"]),
  code: z
    .string()
    .transform((value) => value.replace(/[\s-]/g, "").toLowerCase())
    .pipe(z.string().min(1, "Enter the code").max(40, "That code is not right")),
});

/** A recovery code as it is kept ("k7m2q-x9fhr"), however it was typed: spaces, no dash, capitals. */
function recoveryCode(typed: string): string {
  return typed.length === 10 ? `${typed.slice(0, 5)}-${typed.slice(5)}` : typed;
}

/**
 * The second step of a password sign-in (docs/decisions/043-a-second-factor.md):
 * a code from the account's authenticator app, or one of its recovery codes. The
 * password was right; nothing is signed in until this is too.
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAnonymous(request);
  // Opened without a password sign-in before it (a bookmark, a second tab after the first finished).
  if (!PENDING_COOKIE.test(request.headers.get("cookie") ?? "")) throw redirect("/auth");
  return null;
}

export async function action({ request }: Route.ActionArgs) {
  await requireAnonymous(request);
  const form = await readForm(request);
  const redirectTo = safeRedirect(form.get("redirectTo"));
  const parsed = CodeSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return data({ fieldErrors: { code: ["Enter the code"] } }, { status: 400 });
  const { intent, code } = parsed.data;
  const endpoint = intent === "recovery" ? "/two-factor/verify-backup-code" : "/two-factor/verify-totp";
  const result = await callAuth(request, endpoint, { code: intent === "recovery" ? recoveryCode(code) : code });
  if (result.ok) throw redirect(redirectTo, { headers: cookieHeaders(result.headers) });
  switch (result.code) {
    case "INVALID_CODE":
    case "INVALID_BACKUP_CODE":
      return data(
        {
          fieldErrors: {
            code: [
              intent === "recovery"
                ? "That recovery code is not right, or was used already."
                : "That code is not right. Enter the 6 digits your app shows now.",
            ],
          },
        },
        { status: 400, headers: cookieHeaders(result.headers) },
      );
    case "INVALID_TWO_FACTOR_COOKIE":
    case "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE":
      // The ten minutes are over, or five wrong codes ended this sign-in: it starts again with the password.
      return data(
        { expired: true, formError: "This sign-in has ended. Sign in again with your password." },
        { status: 400, headers: cookieHeaders(result.headers) },
      );
    case "ACCOUNT_TEMPORARILY_LOCKED":
      return data(
        { expired: true, formError: "Too many wrong codes for this account. Wait 15 minutes, then sign in again." },
        { status: 429, headers: cookieHeaders(result.headers) },
      );
    default:
      return data(
        { formError: result.status === 429 ? result.message : "That did not work. Please try again." },
        { status: result.status === 429 ? 429 : 400, headers: cookieHeaders(result.headers) },
      );
  }
}

export default function TwoFactor({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [params] = useSearchParams();
  const recovery = params.get("with") === "recovery";
  const redirectTo = params.get("redirectTo") ?? "";
  const other = new URLSearchParams(params);
  if (recovery) other.delete("with");
  else other.set("with", "recovery");
  const failure = actionData as
    | { fieldErrors?: { code?: string[] }; formError?: string; expired?: boolean }
    | undefined;
  return (
    <AuthShell>
      <div className="mb-8 space-y-2">
        <h1 className="text-3xl font-semibold tracking-tight">Second step</h1>
        <p className="text-slate-600 dark:text-slate-400">
          {recovery
            ? "Enter one of the recovery codes you kept when you set up your authenticator app. Each works once."
            : "Open your authenticator app and enter the 6-digit code it shows for this account."}
        </p>
      </div>
      {failure?.expired ? (
        <div className="space-y-4">
          <Alert tone="error">{failure.formError}</Alert>
          <Link to="/auth" className="font-medium text-brand-ink hover:underline">
            Sign in again
          </Link>
        </div>
      ) : (
        <>
          <Form method="post" className="space-y-4" noValidate key={recovery ? "recovery" : "code"}>
            <input type="hidden" name="intent" value={recovery ? "recovery" : "code"} />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            {failure?.formError ? <Alert tone="error">{failure.formError}</Alert> : null}
            <Field
              label={recovery ? "Recovery code" : "Code"}
              name="code"
              autoComplete={recovery ? "off" : "one-time-code"}
              inputMode={recovery ? "text" : "numeric"}
              autoCapitalize="off"
              spellCheck={false}
              required
              autoFocus
              errors={failure?.fieldErrors?.code}
            />
            <Button type="submit" size="lg" className="w-full" disabled={busy}>
              {busy ? "Checking..." : "Continue"}
            </Button>
          </Form>
          <div className="mt-6 space-y-4 text-sm">
            <Link to={`/auth/two-factor?${other}`} className="block font-medium text-brand-ink hover:underline">
              {recovery ? "Use the code from your app instead" : "Lost your phone? Use a recovery code"}
            </Link>
            <PasskeySignIn redirectTo={redirectTo} />
            <p className="text-slate-500 dark:text-slate-400">
              No phone and no recovery code? An administrator of your company can remove the second step from your
              account.
            </p>
          </div>
        </>
      )}
    </AuthShell>
  );
}
