import { KeyRound } from "lucide-react";
import { useState } from "react";
import { data, Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { AuthSchema, ResendSchema } from "~/.server/accounts/schemas";
import { callAuth, cookieHeaders } from "~/.server/http/auth";
import { requireAnonymous } from "~/.server/http/authz";
import { formTargetsContext } from "~/.server/http/csp";
import { readForm } from "~/.server/http/form-data";
import { failure } from "~/.server/http/responses";
import { isAdminEmail } from "~/.server/platform/admins";
import { fieldErrors, safeRedirect } from "~/.server/platform/validation";
import { SSO_MESSAGES, ssoMessage } from "~/.server/sso/messages";
import { providerForEmail, requiresProvider, signInProviders } from "~/.server/sso/providers";
import { NameFields, NewPasswordField, PhoneField } from "~/components/account-fields";
import { AuthShell, MailSentScreen } from "~/components/auth-shell";
import { Field, Honeypot } from "~/components/forms";
import { PasskeySignIn } from "~/components/passkey-button";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import type { ActionFailure } from "~/lib/action-result";
import { useSite } from "~/lib/site";
import type { Route } from "./+types/auth";

export function meta({ location, matches }: Route.MetaArgs) {
  const company = (matches[0]?.data as { site?: { companyName: string } } | undefined)?.site?.companyName ?? "Namecard";
  const signup = new URLSearchParams(location.search).get("mode") === "signup";
  return [{ title: `${signup ? `Join ${company}` : "Sign in"} · ${company}` }];
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAnonymous(request);
  const providers = await signInProviders();
  // Without JavaScript the sign-in form's answer leads on to a provider: the page's policy allows it.
  context.set(formTargetsContext, [...new Set(providers.map((provider) => provider.authorizationOrigin))]);
  return {
    providers: providers.map(({ id, name, domains }) => ({ id, name, domains })),
    // A sign-in through a provider that did not end in a session comes back here with its reason.
    ssoError: ssoMessage(new URL(request.url).searchParams.get("sso")),
  };
}

type Sent = { sent: string; resent?: boolean; notice?: string; values: Record<string, string> };

export async function action({ request }: Route.ActionArgs) {
  await requireAnonymous(request);
  const form = await readForm(request);
  const intent = form.get("intent");
  // What the form shows again after a failure: the mode and what was typed, never the password.
  const values: Record<string, string> = { intent: intent === "signup" || intent === "correct" ? "signup" : "signin" };
  for (const name of ["firstName", "lastName", "email", "phone"]) {
    const value = form.get(name);
    if (typeof value === "string") values[name] = value;
  }
  const redirectTo = safeRedirect(form.get("redirectTo"));

  // The check-your-email screen: back to the sign-up form to correct the address.
  if (intent === "correct") return data<ActionFailure>({ values });
  if (intent === "resend") return resend(request, values);
  if (intent === "sso")
    return startSso(request, { providerId: String(form.get("providerId") ?? "") }, redirectTo, values);
  // An address whose domain has a provider goes there: when its password was left empty, or may not be used.
  if (intent === "signin" && typeof values.email === "string" && values.email.includes("@")) {
    const provider = await providerForEmail(values.email);
    const password = form.get("password");
    // An address of ADMIN_EMAILS signs in with its password only, whatever its domain: the provider would refuse it.
    if (provider && isAdminEmail(values.email) && !password) {
      return failure(400, {
        fieldErrors: { password: ["This address signs in with its password, not through your company's sign-in."] },
        values: { ...values, usePassword: "1" },
      });
    }
    if (provider && !isAdminEmail(values.email) && (!password || requiresProvider(provider, values.email))) {
      return startSso(request, { email: values.email.trim() }, redirectTo, values);
    }
  }

  if (form.get("website_url")) return failure(400, { formError: "An error occurred", values });
  const parsed = AuthSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return failure(400, { fieldErrors: fieldErrors(parsed.error), values });

  if (parsed.data.intent === "signin") {
    const { email, password } = parsed.data;
    const result = await callAuth<{ twoFactorRedirect?: boolean }>(request, "/sign-in/email", {
      email,
      password,
      rememberMe: true,
    });
    // The password was right and the account has an authenticator app: its code is the second step.
    if (result.ok && result.data?.twoFactorRedirect) {
      const next = redirectTo === "/" ? "" : `?${new URLSearchParams({ redirectTo })}`;
      throw redirect(`/auth/two-factor${next}`, { headers: cookieHeaders(result.headers) });
    }
    if (result.ok) throw redirect(redirectTo, { headers: cookieHeaders(result.headers) });
    if (result.code !== "EMAIL_NOT_VERIFIED") {
      return failure(result.status === 429 ? 429 : 400, { formError: result.message, values });
    }
    // The password was right: a new link goes out, and this browser may open it directly.
    const resent = await callAuth(request, "/resend-confirmation", { email, password });
    const formError = resent.ok
      ? "Email not verified. We've sent you a new link: open it to finish signing up."
      : `Email not verified. ${resent.message}`;
    return data<ActionFailure>({ formError, values }, { status: 400, headers: cookieHeaders(resent.headers) });
  }

  const { firstName, lastName, email, password, phone } = parsed.data;
  const result = await callAuth(request, "/sign-up/email", {
    firstName,
    lastName,
    email,
    password,
    phone: phone ?? undefined,
    callbackURL: redirectTo,
  });
  if (!result.ok) {
    const status = result.status === 429 ? 429 : 400;
    if (result.fieldErrors) return failure(status, { fieldErrors: result.fieldErrors, values });
    return failure(status, { formError: result.message, values });
  }
  // The next step is in the mailbox: the page says where the link went.
  return data<Sent>({ sent: email, values: carriedValues(values) }, { headers: cookieHeaders(result.headers) });
}

/** What the check-your-email screen carries, to send again or correct the address. */
function carriedValues(values: Record<string, string>) {
  const { firstName = "", lastName = "", phone = "" } = values;
  return { firstName, lastName, phone };
}

/** Sends the browser to the provider, keeping the key that lets it finish the sign-in. */
async function startSso(
  request: Request,
  chosen: { providerId: string } | { email: string },
  redirectTo: string,
  values: Record<string, string>,
) {
  const result = await callAuth<{ url: string }>(request, "/sign-in/sso", { ...chosen, callbackURL: redirectTo });
  if (result.ok) throw redirect(result.data.url, { headers: cookieHeaders(result.headers) });
  const formError =
    result.status === 429
      ? result.message
      : result.code === "NO_PROVIDER" || result.code === "INVALID_INPUT"
        ? "Choose one of the sign-in buttons below."
        : SSO_MESSAGES.unavailable;
  return failure(result.status === 429 ? 429 : 400, { formError, values });
}

async function resend(request: Request, values: Record<string, string>) {
  const parsed = ResendSchema.safeParse(values);
  if (!parsed.success) return failure(400, { fieldErrors: fieldErrors(parsed.error), values });
  const { email } = parsed.data;
  const result = await callAuth(request, "/resend-confirmation", { email });
  if (!result.ok) {
    return data<Sent>(
      { sent: email, notice: result.message, values: carriedValues(values) },
      { status: result.status },
    );
  }
  return data<Sent>({ sent: email, resent: true, values: carriedValues(values) });
}

/** The domain of a typed address, as the providers list theirs (the server also reads international names). */
function typedDomain(email: string): string {
  const at = email.lastIndexOf("@");
  return at < 0
    ? ""
    : email
        .slice(at + 1)
        .trim()
        .toLowerCase()
        .replace(/\.$/, "");
}

export default function AuthRoute({ loaderData, actionData }: Route.ComponentProps) {
  const { providers, ssoError } = loaderData;
  const site = useSite();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith("/auth");
  const redirectTo = params.get("redirectTo") ?? "";
  const failed = actionData && !("sent" in actionData) ? actionData : undefined;
  const typedMode = failed?.values?.intent;
  const mode = (typedMode ?? params.get("mode")) === "signup" ? "signup" : "signin";
  const errors = failed?.fieldErrors;
  const formError = failed?.formError;
  const typed = failed?.values ?? {};
  const [email, setEmail] = useState(typed.email ?? "");
  // The server asks for the password of an address that may not go to the provider (ADMIN_EMAILS).
  const [usePassword, setUsePassword] = useState(typed.usePassword === "1");
  // An address of a provider's domain signs in there: the password field steps aside (a button brings it back).
  const routed =
    mode === "signin" && !usePassword
      ? providers.find((provider) => provider.domains.includes(typedDomain(email)))
      : undefined;
  const toggle = new URLSearchParams(params);
  if (mode === "signup") toggle.delete("mode");
  else toggle.set("mode", "signup");

  if (actionData && "sent" in actionData) {
    return <CheckYourEmail sent={actionData} companyName={site.companyName} busy={busy} />;
  }

  return (
    <AuthShell>
      <div className="mb-8 space-y-2">
        <h1 className="text-3xl font-semibold tracking-tight">
          {mode === "signup" ? `Join ${site.companyName}` : "Welcome Back"}
        </h1>
        <p className="text-slate-600 dark:text-slate-400">
          {mode === "signup"
            ? "Create your account to get your digital business card."
            : "Sign in to your card and the directory."}
        </p>
      </div>
      <Form method="post" className="space-y-4" noValidate key={mode}>
        <input type="hidden" name="intent" value={mode} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {formError || ssoError ? <Alert tone="error">{formError ?? ssoError}</Alert> : null}
        {mode === "signup" ? (
          <>
            <Honeypot />
            <NameFields typed={typed} errors={errors} />
          </>
        ) : null}
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={typed.email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          errors={errors?.email}
        />
        {/* Said when the password steps aside, for someone who does not see it go. */}
        <p aria-live="polite" className="sr-only">
          {routed ? `Your company signs you in with ${routed.name}. No password is needed.` : ""}
        </p>
        {mode === "signup" ? (
          <NewPasswordField errors={errors} />
        ) : routed ? (
          <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-slate-50 px-4 py-3 text-sm text-slate-700 dark:bg-slate-900 dark:text-slate-300">
            <span>
              <KeyRound aria-hidden className="mr-1.5 inline size-4 align-[-3px]" />
              Your company signs you in with <strong>{routed.name}</strong>.
            </span>
            <button
              type="button"
              onClick={() => setUsePassword(true)}
              className="font-medium text-brand-ink hover:underline"
            >
              Use a password instead
            </button>
          </div>
        ) : (
          <Field
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            errors={errors?.password}
          />
        )}
        {mode === "signup" ? (
          <PhoneField typed={typed} errors={errors} />
        ) : routed ? null : (
          <div className="flex justify-end">
            <Link to="/auth/forgot-password" className="text-sm font-medium text-brand-ink hover:underline">
              Forgot password?
            </Link>
          </div>
        )}
        {mode === "signup" && (site.hasTerms || site.hasPrivacy) ? (
          <p className="text-xs text-slate-500 dark:text-slate-400">
            By creating an account you agree to the{" "}
            {site.hasTerms ? (
              <a href="/terms" className="font-medium text-brand-ink underline">
                Terms of Service
              </a>
            ) : null}
            {site.hasTerms && site.hasPrivacy ? " and the " : null}
            {site.hasPrivacy ? (
              <a href="/privacy" className="font-medium text-brand-ink underline">
                Privacy Policy
              </a>
            ) : null}
            .
          </p>
        ) : null}
        <Button type="submit" size="lg" className="w-full" disabled={busy}>
          {busy
            ? mode === "signup"
              ? "Creating account..."
              : "Signing in..."
            : mode === "signup"
              ? "Create account"
              : routed
                ? `Continue with ${routed.name}`
                : "Sign In"}
        </Button>
      </Form>
      {mode === "signin" ? (
        <div className="mt-3">
          <PasskeySignIn redirectTo={redirectTo} />
        </div>
      ) : null}
      {providers.length > 0 ? <ProviderButtons providers={providers} redirectTo={redirectTo} busy={busy} /> : null}
      <p className="mt-6 text-center text-sm text-slate-600 dark:text-slate-400">
        {mode === "signup" ? "Already have an account? " : "Don't have an account? "}
        <Link to={`/auth${toggle.size ? `?${toggle}` : ""}`} className="font-medium text-brand-ink hover:underline">
          {mode === "signup" ? "Sign in" : "Sign up"}
        </Link>
      </p>
    </AuthShell>
  );
}

/** "Sign in with …", one button per provider: a plain form, so it works before JavaScript arrives. */
function ProviderButtons({
  providers,
  redirectTo,
  busy,
}: {
  providers: { id: string; name: string }[];
  redirectTo: string;
  busy: boolean | undefined;
}) {
  return (
    <div className="mt-6 space-y-3">
      <div className="flex items-center gap-3 text-xs tracking-wide text-slate-500 uppercase dark:text-slate-400">
        <span aria-hidden className="h-px flex-1 bg-slate-200 dark:bg-slate-800" />
        or
        <span aria-hidden className="h-px flex-1 bg-slate-200 dark:bg-slate-800" />
      </div>
      {providers.map((provider) => (
        <Form key={provider.id} method="post">
          <input type="hidden" name="intent" value="sso" />
          <input type="hidden" name="providerId" value={provider.id} />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <Button type="submit" variant="secondary" size="lg" className="w-full" disabled={busy}>
            <KeyRound aria-hidden className="size-4" />
            Sign in with {provider.name}
          </Button>
        </Form>
      ))}
    </div>
  );
}

/** After sign-up: where the link went, how to get a new one, and how to correct the address. */
function CheckYourEmail({ sent, companyName, busy }: { sent: Sent; companyName: string; busy: boolean | undefined }) {
  const hidden = (
    <>
      <input type="hidden" name="email" value={sent.sent} />
      {Object.entries(sent.values).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </>
  );
  return (
    <MailSentScreen>
      <p className="text-slate-600 dark:text-slate-400">
        We sent a link to <strong className="break-all text-slate-900 dark:text-slate-100">{sent.sent}</strong>. Open it
        to confirm your address and finish joining {companyName}.
      </p>
      {sent.resent ? (
        <Alert tone="success">We sent a new link. Links we sent before it no longer work.</Alert>
      ) : sent.notice ? (
        <Alert tone="error">{sent.notice}</Alert>
      ) : null}
      <p className="text-sm text-slate-500 dark:text-slate-400">
        Nothing arrived after a few minutes? Check your spam folder, then send it again.
      </p>
      <div className="flex flex-col gap-3 sm:flex-row sm:justify-center">
        <Form method="post">
          <input type="hidden" name="intent" value="resend" />
          {hidden}
          <Button type="submit" variant="secondary" className="w-full" disabled={busy}>
            {busy ? "Sending..." : "Send the link again"}
          </Button>
        </Form>
        <Form method="post">
          <input type="hidden" name="intent" value="correct" />
          {hidden}
          <Button type="submit" variant="secondary" className="w-full" disabled={busy}>
            Change the address
          </Button>
        </Form>
      </div>
      <p className="text-sm text-slate-500 dark:text-slate-400">
        Already confirmed?{" "}
        <Link to="/auth" className="font-medium text-brand-ink hover:underline">
          Sign in
        </Link>
      </p>
    </MailSentScreen>
  );
}
