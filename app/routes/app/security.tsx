import { Fingerprint, KeyRound, Smartphone } from "lucide-react";
import type { ReactNode } from "react";
import { data, Form, useNavigation, useRevalidator } from "react-router";
import { mustUseSecondFactor } from "~/.server/accounts/second-factor";
import { cookieHeaders } from "~/.server/http/auth";
import {
  APP_ON,
  authenticatorStep,
  type FactorRefusal,
  factorsOf,
  newRecoveryCodes,
  ownerOf,
  refusalAnswer,
  removePasskey,
  turnOffAuthenticator,
} from "~/.server/http/factors";
import { readForm } from "~/.server/http/form-data";
import { redirectWithToast } from "~/.server/http/toast";
import { requiredProviderFor } from "~/.server/sso/providers";
import { PasswordStep, RecoveryCodes, ScanStep, type SetupShown } from "~/components/authenticator-setup";
import { Field } from "~/components/forms";
import { LocalTime } from "~/components/local-time";
import { PageHeader } from "~/components/page-header";
import { AddPasskey } from "~/components/passkey-button";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/security";

export const meta: Route.MetaFunction = () => [{ title: "Sign-in and security" }];

const HERE = "/account/security";
/** A passkey's id as better-auth makes them. */
const PASSKEY_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The account's ways to prove it is them (docs/decisions/043-a-second-factor.md). */
export async function loader({ context }: Route.LoaderArgs) {
  const viewer = context.get(viewerContext);
  const [factors, required, provider] = await Promise.all([
    factorsOf(viewer.user.id),
    mustUseSecondFactor({ email: viewer.user.email, role: viewer.role, brandIds: viewer.brandIds }),
    requiredProviderFor(viewer.user.email),
  ]);
  return { ...factors, required, providerName: provider?.name ?? null };
}

type SecurityData = {
  setup?: SetupShown;
  codes?: string[];
  form?: "app-begin" | "app-confirm" | "app-off" | "codes-new";
  fieldErrors?: { password?: string[]; code?: string[] };
  formError?: string;
};

function refused(form: SecurityData["form"], refusal: FactorRefusal) {
  const { status, body } = refusalAnswer(refusal);
  return data<SecurityData>({ form, ...body }, { status });
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = context.get(viewerContext);
  const form = await readForm(request);
  const intent = form.get("intent");
  const password = String(form.get("password") ?? "");
  const needPassword = (which: SecurityData["form"]) =>
    data<SecurityData>({ form: which, fieldErrors: { password: ["Enter your password"] } }, { status: 400 });
  switch (intent) {
    case "app-begin":
    case "app-confirm": {
      const step = await authenticatorStep(request, ownerOf(viewer), form);
      if ("on" in step) return redirectWithToast(HERE, { text: APP_ON }, { headers: cookieHeaders(step.on) });
      const next = intent === "app-begin" && step.body.setup ? "app-confirm" : intent;
      return data<SecurityData>({ form: next, ...step.body }, { status: step.status });
    }
    case "app-off": {
      if (!password) return needPassword("app-off");
      const off = await turnOffAuthenticator(request, viewer, password);
      if ("message" in off) return refused("app-off", off);
      return redirectWithToast(
        HERE,
        { text: "Your authenticator app is off, and its recovery codes no longer work." },
        { headers: cookieHeaders(off.headers) },
      );
    }
    case "codes-new": {
      if (!password) return needPassword("codes-new");
      const made = await newRecoveryCodes(request, ownerOf(viewer), password);
      return "message" in made
        ? refused("codes-new", made)
        : data<SecurityData>({ form: "codes-new", codes: made.codes });
    }
    case "passkey-remove": {
      const id = String(form.get("id") ?? "");
      if (!PASSKEY_ID.test(id)) return data<SecurityData>({ formError: "The request is not valid." }, { status: 400 });
      if (!(await removePasskey(ownerOf(viewer), id))) {
        return data<SecurityData>({ formError: "That passkey was removed already." }, { status: 404 });
      }
      return redirectWithToast(HERE, {
        text: "The passkey was removed. Your device may still list it: delete it there too.",
      });
    }
    default:
      return data<SecurityData>({ formError: "The request is not valid." }, { status: 400 });
  }
}

function Section({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  const id = title.toLowerCase().replace(/\W+/g, "-");
  return (
    <section
      aria-labelledby={id}
      className="space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id={id} className="flex items-center gap-2 text-lg font-semibold">
        {icon}
        {title}
      </h2>
      {children}
    </section>
  );
}

export default function Security({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const busy = navigation.state === "submitting";
  const shown = actionData as SecurityData | undefined;
  const { authenticator, hasPassword, passkeys, required, providerName } = loaderData;
  return (
    <div className="max-w-2xl space-y-6">
      <PageHeader
        title="Sign-in and security"
        description="A second step after your password keeps your card and your colleagues' details safe if your password leaks."
      />
      {required && !authenticator ? (
        <Alert tone="warning">
          Your company asks for a code from an authenticator app when you sign in with a password.
        </Alert>
      ) : null}
      {shown?.formError ? <Alert tone="error">{shown.formError}</Alert> : null}

      <Section icon={<Smartphone aria-hidden className="size-5 text-brand-ink" />} title="Authenticator app">
        {!hasPassword ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            You sign in through your company's sign-in, which has its own second step. There is no password here to
            protect.
          </p>
        ) : authenticator ? (
          <>
            <p className="text-sm text-slate-700 dark:text-slate-300">
              <strong className="text-emerald-700 dark:text-emerald-400">On.</strong> Sign-ins with your password ask
              for the code your app shows.
            </p>
            {shown?.codes ? <RecoveryCodes codes={shown.codes} /> : null}
            <details className="group" open={shown?.form === "codes-new" && !shown.codes}>
              <summary className="cursor-pointer text-sm font-medium text-brand-ink">New recovery codes</summary>
              <Form method="post" className="mt-3 space-y-3" noValidate>
                <input type="hidden" name="intent" value="codes-new" />
                <p className="text-sm text-slate-600 dark:text-slate-400">
                  Ten new codes replace the old ones, used or not.
                </p>
                <Field
                  label="Your password"
                  name="password"
                  id="codes-password"
                  type="password"
                  autoComplete="current-password"
                  errors={shown?.form === "codes-new" ? shown.fieldErrors?.password : undefined}
                />
                <Button type="submit" variant="secondary" disabled={busy}>
                  Make new codes
                </Button>
              </Form>
            </details>
            {required ? (
              <p className="text-sm text-slate-500 dark:text-slate-400">
                Your company asks for this second step, so it stays on.
              </p>
            ) : (
              <details className="group" open={shown?.form === "app-off"}>
                <summary className="cursor-pointer text-sm font-medium text-red-700 dark:text-red-400">
                  Turn off
                </summary>
                <Form method="post" className="mt-3 space-y-3" noValidate>
                  <input type="hidden" name="intent" value="app-off" />
                  <Field
                    label="Your password"
                    name="password"
                    id="off-password"
                    type="password"
                    autoComplete="current-password"
                    errors={shown?.form === "app-off" ? shown.fieldErrors?.password : undefined}
                  />
                  <Button type="submit" variant="destructive" disabled={busy}>
                    Turn off the second step
                  </Button>
                </Form>
              </details>
            )}
          </>
        ) : shown?.setup ? (
          <ScanStep setup={shown.setup} errors={shown.fieldErrors?.code} busy={busy} />
        ) : (
          <>
            <p className="text-sm text-slate-600 dark:text-slate-400">
              After your password, sign-ins ask for a 6-digit code from an app on your phone. You also get ten recovery
              codes for when the phone is lost.
            </p>
            <PasswordStep errors={shown?.fieldErrors?.password} busy={busy} submitLabel="Set up" />
          </>
        )}
      </Section>

      <Section icon={<Fingerprint aria-hidden className="size-5 text-brand-ink" />} title="Passkeys">
        {providerName || !hasPassword ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {providerName
              ? `Your company signs you in with ${providerName}, so passkeys are not used here.`
              : "You sign in through your company's sign-in, so passkeys are not used here."}
          </p>
        ) : (
          <>
            <p className="text-sm text-slate-600 dark:text-slate-400">
              A passkey signs you in with your fingerprint, face or device PIN instead of your password and code. It
              stays on your device or in its password manager, and cannot be phished.
            </p>
            {passkeys.length > 0 ? (
              <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
                {passkeys.map((key) => (
                  <li key={key.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
                    <div className="min-w-0 text-sm">
                      <p className="flex items-center gap-2 font-medium">
                        <KeyRound aria-hidden className="size-4 text-slate-500" />
                        <span className="truncate">{key.name}</span>
                      </p>
                      {key.createdAt ? (
                        <p className="text-slate-500 dark:text-slate-400">
                          Added <LocalTime at={key.createdAt} />
                          {key.backedUp ? " · synced" : ""}
                        </p>
                      ) : null}
                    </div>
                    <Form method="post">
                      <input type="hidden" name="intent" value="passkey-remove" />
                      <input type="hidden" name="id" value={key.id} />
                      <Button
                        type="submit"
                        variant="secondary"
                        size="sm"
                        disabled={busy}
                        aria-label={`Remove ${key.name}`}
                      >
                        Remove
                      </Button>
                    </Form>
                  </li>
                ))}
              </ul>
            ) : null}
            <AddPasskey action={`${HERE}/passkeys`} onAdded={() => revalidator.revalidate()} />
          </>
        )}
      </Section>
    </div>
  );
}
