import { FlaskConical, KeyRound, Pencil, RefreshCw, ShieldCheck, Trash2, TriangleAlert } from "lucide-react";
import { Fragment, type ReactNode, useState } from "react";
import { Form, Link, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { callAuth, cookieHeaders } from "~/.server/http/auth";
import { requirePermission } from "~/.server/http/authz";
import { formTargetsContext } from "~/.server/http/csp";
import { type BodyHandle, formText, MAX_SAML_FORM_BYTES, readForm } from "~/.server/http/form-data";
import { failure, failureFrom } from "~/.server/http/responses";
import { redirectWithToast } from "~/.server/http/toast";
import { parseForm } from "~/.server/platform/validation";
import { recentFailures } from "~/.server/sso/failures";
import { callbackUrl } from "~/.server/sso/oidc";
import { deleteProvider, listProviders, recheckProvider, saveProvider, signInProviders } from "~/.server/sso/providers";
import { samlAcsUrl, samlEntityId } from "~/.server/sso/saml";
import { ProviderFormSchema, ProviderIdSchema } from "~/.server/sso/schemas";
import { testResultOf } from "~/.server/sso/test-sign-in";
import { BackLink } from "~/components/back-link";
import { CopyField } from "~/components/copy-field";
import { EmptyState } from "~/components/empty-state";
import { FormAlert } from "~/components/form-alert";
import { ErrorList, Field, fieldId, TextareaField } from "~/components/forms";
import { LocalTime } from "~/components/local-time";
import { PageHeader } from "~/components/page-header";
import { Button, ButtonLink } from "~/components/ui/button";
import { Confirm } from "~/components/ui/dialog";
import { useDialogFetcher } from "~/components/use-dialog-fetcher";
import { CARD_FIELDS, type CardFieldKey } from "~/lib/card-fields";
import {
  IDENTITY_PROTOCOL_NAMES,
  IDENTITY_PROTOCOLS,
  type IdentityProtocol,
  protocolNamed,
} from "~/lib/identity-protocols";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/single-sign-on";

export const meta: Route.MetaFunction = () => [{ title: "Single sign-on" }];

const PAGE = "/admin/settings/single-sign-on";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requirePermission(context.get(viewerContext), "update:settings:any");
  // A test sign-in's form leads on to the provider's sign-in page: the page's policy allows it, without JavaScript too.
  context.set(formTargetsContext, [
    ...new Set((await signInProviders()).map((provider) => provider.authorizationOrigin)),
  ]);
  const providers = await Promise.all(
    (await listProviders()).map(async (provider) => ({
      ...provider,
      failures: await recentFailures(provider.id, provider.protocol),
    })),
  );
  const query = new URL(request.url).searchParams;
  const editing = providers.find((provider) => provider.id === query.get("edit")) ?? null;
  const tested = query.get("tested");
  return {
    providers,
    // A test sign-in's answer, for the administrator who started it; "failed" when the failures list says why.
    test:
      tested === "failed"
        ? ({ failed: true } as const)
        : tested
          ? ((await testResultOf(tested, viewer.user.id)) ?? { gone: true as const })
          : null,
    redirectUrl: callbackUrl(),
    saml: { entityId: samlEntityId(), acsUrl: samlAcsUrl(), metadataUrl: samlEntityId() },
    editing,
    protocol: editing?.protocol ?? protocolNamed(query.get("protocol")),
  };
}

/** A provider's metadata is pasted into the form: longer than any other form's text. */
export const handle: BodyHandle = { bodyLimit: "saml" };

/** The provider a save changes; none adds one. */
const SaveSchema = z.object({ id: z.union([z.literal(""), z.uuid("Reload the page and try again")]).optional() });

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requirePermission(context.get(viewerContext), "update:settings:any");
  const values = formText(await readForm(request, MAX_SAML_FORM_BYTES));
  // What the form shows again: never the secret or a certificate.
  const { clientSecret: _secret, certificate: _certificate, ...kept } = values;
  if (values.intent === "save") {
    try {
      const { id } = parseForm(SaveSchema, values);
      const form = parseForm(ProviderFormSchema, values);
      const saved = await saveProvider({ actor: viewer, id: id || null, form });
      return redirectWithToast(PAGE, {
        text: `${saved.name} is saved. People of ${form.domains.join(", ")} can now sign in with it.`,
      });
    } catch (error) {
      return failureFrom(error, {
        values: kept,
        notFound: "This provider was removed meanwhile. Add it again.",
        unexpected: "The provider could not be saved. Please try again.",
      });
    }
  }
  if (values.intent === "test") {
    let id: string;
    try {
      id = parseForm(ProviderIdSchema, values).id;
    } catch (error) {
      return failureFrom(error);
    }
    const started = await callAuth<{ url: string }>(request, "/sign-in/sso", { providerId: id, test: true });
    if (started.ok) throw redirect(started.data.url, { headers: cookieHeaders(started.headers) });
    return failure(400, {
      formError:
        started.code === "NO_PROVIDER"
          ? "This provider was removed meanwhile."
          : "The provider cannot be reached right now: its failures below say why.",
    });
  }
  if (values.intent === "recheck") {
    try {
      const checked = await recheckProvider({ actor: viewer, id: parseForm(ProviderIdSchema, values).id });
      if (!checked.ok) return failure(400, { formError: `${checked.name}: ${checked.message}` });
      return redirectWithToast(PAGE, { text: `${checked.name}'s settings were read again from the provider.` });
    } catch (error) {
      return failureFrom(error, { notFound: "This provider was removed meanwhile." });
    }
  }
  if (values.intent === "delete") {
    try {
      const removed = await deleteProvider({ actor: viewer, id: parseForm(ProviderIdSchema, values).id });
      return redirectWithToast(PAGE, { text: `${removed.name} is removed. Its people sign in with a password again.` });
    } catch (error) {
      return failureFrom(error, { notFound: "This provider was already removed." });
    }
  }
  return failure(400, { formError: "Unknown action." });
}

type Provider = Route.ComponentProps["loaderData"]["providers"][number];

export default function SingleSignOn({ loaderData, actionData }: Route.ComponentProps) {
  const { providers, redirectUrl, saml, editing, protocol, test } = loaderData;
  const [removing, setRemoving] = useState<Provider | null>(null);
  const remover = useDialogFetcher(() => setRemoving(null));

  return (
    <div className="max-w-4xl">
      <BackLink to="/admin/settings/security">Settings</BackLink>
      <PageHeader
        title="Single sign-on"
        description="Let people sign in with your company's identity provider, such as Okta, Microsoft Entra ID or Google Workspace, through OpenID Connect or SAML 2.0."
      />

      {test ? <TestResultPanel test={test} /> : null}
      {actionData?.formError && !editing ? (
        <div className="mb-6">
          <FormAlert failure={actionData} nothingDone="Nothing was changed." />
        </div>
      ) : null}

      <section aria-labelledby="providers-title" className="mb-10 space-y-4">
        <h2 id="providers-title" className="text-lg font-semibold">
          Providers
        </h2>
        {providers.length === 0 ? (
          <EmptyState
            Icon={KeyRound}
            title="No provider yet"
            text="Add your identity provider below: people of its domains then sign in with it."
          />
        ) : (
          <ul className="space-y-4">
            {providers.map((provider) => (
              <li key={provider.id}>
                <ProviderCard provider={provider} onRemove={() => setRemoving(provider)} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <ProviderForm
        // A new key after each add or removal: the form starts empty again, its secret field too.
        key={`${editing?.id ?? "new"}-${protocol}-${providers.length}`}
        editing={editing}
        protocol={protocol}
        redirectUrl={redirectUrl}
        saml={saml}
        failure={actionData}
      />

      <Confirm
        open={removing !== null}
        onOpenChange={(open) => (open ? null : setRemoving(null))}
        title={`Remove ${removing?.name ?? "this provider"}?`}
        confirmLabel="Remove provider"
        busy={remover.busy}
        onConfirm={() => {
          if (removing) remover.submit({ intent: "delete", id: removing.id }, { method: "post" });
        }}
      >
        <p>
          People of {removing?.domains.join(", ")} will sign in with a password again. Their accounts and cards stay; if
          you add the provider back, they are recognised again.
        </p>
        {remover.failure?.formError ? <ErrorList errors={[remover.failure.formError]} /> : null}
      </Confirm>
    </div>
  );
}

/** The provider's newest sign-ins that ended without a session: what happened, and what to change. */
function SignInFailures({ provider }: { provider: Provider }) {
  const titleId = `failures-${provider.id}`;
  return (
    <section aria-labelledby={titleId} className="mt-3 space-y-2">
      <h4 id={titleId} className="flex items-center gap-1.5 text-sm font-medium text-amber-800 dark:text-amber-300">
        <TriangleAlert aria-hidden className="size-4 shrink-0" />
        Recent failed sign-ins
      </h4>
      <ul className="space-y-2">
        {provider.failures.map((failure) => (
          <li
            key={`${String(failure.at)}-${failure.what}`}
            className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm dark:border-amber-900/60 dark:bg-amber-950/40"
          >
            <p className="text-slate-900 dark:text-slate-100">
              <time dateTime={new Date(failure.at).toISOString()} className="text-slate-500 dark:text-slate-400">
                <LocalTime at={new Date(failure.at).toISOString()} />
              </time>{" "}
              {failure.what}
            </p>
            <p className="text-slate-700 dark:text-slate-300">
              <span className="font-medium">What to change: </span>
              {failure.change}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

type TestShown = NonNullable<Route.ComponentProps["loaderData"]["test"]>;

/** What a real sign-in would do, as the test saw it. */
const REHEARSED: Record<string, string> = {
  returning: "sign in the account this person signed in with before",
  existing: "link this person to the Namecard account that has the address, and sign them in",
  new: "make a Namecard account and a card for this person, and sign them in",
};

/** The answer of the administrator's test sign-in: what the provider sent, and what a real sign-in would do. */
function TestResultPanel({ test }: { test: TestShown }) {
  if ("failed" in test || "gone" in test) {
    return (
      <section id="test-result" aria-labelledby="test-result-title" className="mb-8">
        <h2 id="test-result-title" className="sr-only">
          Test sign-in
        </h2>
        <FormAlert
          failure={{
            formError:
              "failed" in test
                ? "The test sign-in did not come through: the provider's failures below say why."
                : "This test's answer is no longer kept: press Test sign-in again.",
          }}
          nothingDone="Nothing was made or signed in."
        />
      </section>
    );
  }
  const { providerName, claims, rehearsal, refusal } = test;
  const card = [
    ["First name", rehearsal.card.firstName],
    ["Last name", rehearsal.card.lastName],
    ...Object.entries(rehearsal.card.fields).map(([key, value]) => [
      CARD_FIELDS[key as CardFieldKey]?.label ?? key,
      value,
    ]),
  ].filter((row): row is [string, string] => typeof row[1] === "string" && row[1] !== "");
  const outcome =
    rehearsal.outcome === "ok"
      ? `A real sign-in would ${REHEARSED[rehearsal.account ?? "new"]}.`
      : rehearsal.outcome === "confirm-admin"
        ? "A real sign-in would ask this administrator for their Namecard password once, then link the provider to their account."
        : `A real sign-in would be refused. ${refusal?.what ?? ""} ${refusal?.change ?? ""}`.trim();
  return (
    <section
      id="test-result"
      aria-labelledby="test-result-title"
      className="mb-8 space-y-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="space-y-1">
        <h2 id="test-result-title" className="text-lg font-semibold">
          Test sign-in with {providerName}
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          What the provider sent. Nothing was made, linked or signed in.
        </p>
      </div>
      <p
        className={`rounded-lg px-3 py-2 text-sm font-medium ${rehearsal.outcome === "ok" || rehearsal.outcome === "confirm-admin" ? "bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200" : "bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-200"}`}
      >
        {outcome}
      </p>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="text-slate-500 dark:text-slate-400">Issuer</dt>
        <dd className="break-all">{claims.issuer}</dd>
        <dt className="text-slate-500 dark:text-slate-400">Subject</dt>
        <dd className="break-all">{claims.subject}</dd>
        <dt className="text-slate-500 dark:text-slate-400">Address verified</dt>
        <dd>{claims.emailVerified === null ? "Not said" : claims.emailVerified ? "Yes" : "No"}</dd>
        {card.map(([label, value]) => (
          <Fragment key={label}>
            <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
            <dd className="break-all">{value}</dd>
          </Fragment>
        ))}
      </dl>
      <details className="text-sm">
        <summary className="cursor-pointer font-medium">Every claim it sent</summary>
        <dl className="mt-2 grid gap-x-6 gap-y-1 font-mono text-xs sm:grid-cols-[max-content_1fr]">
          {Object.entries(claims.text).map(([name, value]) => (
            <Fragment key={name}>
              <dt className="break-all text-slate-500 dark:text-slate-400">{name}</dt>
              <dd className="break-all">{value}</dd>
            </Fragment>
          ))}
        </dl>
      </details>
    </section>
  );
}

function ProviderCard({ provider, onRemove }: { provider: Provider; onRemove: () => void }) {
  return (
    <article className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 space-y-2">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="text-base font-semibold">{provider.name}</h3>
            <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-300">
              {IDENTITY_PROTOCOLS[provider.protocol].label}
            </span>
            {provider.requireSso ? (
              <span className="inline-flex items-center gap-1 rounded-full bg-emerald-100 px-2.5 py-0.5 text-xs font-medium text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300">
                <ShieldCheck aria-hidden className="size-3.5" />
                Required
              </span>
            ) : null}
          </div>
          <p className="text-sm break-all text-slate-600 dark:text-slate-400">{provider.issuer}</p>
          <ul aria-label="Domains" className="flex flex-wrap gap-1.5">
            {provider.domains.map((domain) => (
              <li
                key={domain}
                className="rounded-md border border-slate-200 px-2 py-0.5 text-xs text-slate-700 dark:border-slate-700 dark:text-slate-300"
              >
                {domain}
              </li>
            ))}
          </ul>
          {provider.certificates.map((certificate) => (
            <p key={certificate.fingerprint} className="text-xs text-slate-500 dark:text-slate-400">
              Signing certificate {certificate.fingerprint.slice(0, 14)}…, valid until{" "}
              {certificate.validTo.slice(0, 10)}
            </p>
          ))}
          {provider.secret === "unreadable" ? (
            <p className="flex items-start gap-1.5 text-sm text-amber-800 dark:text-amber-300">
              <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
              {IDENTITY_PROTOCOLS[provider.protocol].unreadable}
            </p>
          ) : null}
          <p className="text-xs text-slate-500 dark:text-slate-400">
            {provider.refreshCard
              ? "Names, job titles, departments, offices and phones are refreshed from the provider at each sign-in."
              : "Cards are filled from the provider at the first sign-in only."}
          </p>
          {provider.failures.length > 0 ? <SignInFailures provider={provider} /> : null}
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          <Form method="post">
            <input type="hidden" name="intent" value="test" />
            <input type="hidden" name="id" value={provider.id} />
            <Button type="submit" variant="secondary" size="sm">
              <FlaskConical aria-hidden className="size-4" />
              Test sign-in<span className="sr-only"> with {provider.name}</span>
            </Button>
          </Form>
          {provider.rereadable ? (
            <Form method="post">
              <input type="hidden" name="intent" value="recheck" />
              <input type="hidden" name="id" value={provider.id} />
              <Button type="submit" variant="secondary" size="sm">
                <RefreshCw aria-hidden className="size-4" />
                Check again<span className="sr-only"> {provider.name}'s settings</span>
              </Button>
            </Form>
          ) : null}
          <ButtonLink to={`?edit=${provider.id}#provider-form`} variant="secondary" size="sm">
            <Pencil aria-hidden className="size-4" />
            Edit<span className="sr-only"> {provider.name}</span>
          </ButtonLink>
          <Button variant="destructive-outline" size="sm" onClick={onRemove}>
            <Trash2 aria-hidden className="size-4" />
            Remove<span className="sr-only"> {provider.name}</span>
          </Button>
        </div>
      </div>
    </article>
  );
}

type SamlAddresses = Route.ComponentProps["loaderData"]["saml"];

function ProviderForm({
  editing,
  protocol,
  redirectUrl,
  saml,
  failure,
}: {
  editing: Provider | null;
  protocol: IdentityProtocol;
  redirectUrl: string;
  saml: SamlAddresses;
  failure: Route.ComponentProps["actionData"];
}) {
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
  const typed = failure?.values;
  const value = (name: string, stored: string | null | undefined) => typed?.[name] ?? stored ?? "";
  const errors = failure?.fieldErrors;
  const checked = (name: CheckboxName) => (typed ? typed[name] === "on" : !!editing?.[name]);
  const form = PROTOCOL_FORMS[protocol];
  const addresses = { redirectUrl, ...saml };

  return (
    <section
      id="provider-form"
      aria-labelledby="provider-form-title"
      className="space-y-5 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="space-y-1">
        <h2 id="provider-form-title" className="text-lg font-semibold">
          {editing ? `Edit ${editing.name}` : "Add a provider"}
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">{form.intro}</p>
      </div>
      {editing ? null : (
        <nav aria-label="Protocol" className="inline-flex rounded-lg border border-slate-200 p-1 dark:border-slate-700">
          {IDENTITY_PROTOCOL_NAMES.map((choice) => (
            <Link
              key={choice}
              to={`?protocol=${choice}#provider-form`}
              preventScrollReset
              aria-current={choice === protocol ? "page" : undefined}
              className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-600 hover:text-slate-900 aria-[current=page]:bg-slate-900 aria-[current=page]:text-white dark:text-slate-400 dark:hover:text-white dark:aria-[current=page]:bg-white dark:aria-[current=page]:text-slate-900"
            >
              {IDENTITY_PROTOCOLS[choice].label}
            </Link>
          ))}
        </nav>
      )}
      <form.Addresses addresses={addresses} />
      <Form method="post" noValidate className="space-y-5" preventScrollReset>
        <input type="hidden" name="intent" value="save" />
        <input type="hidden" name="id" value={editing?.id ?? ""} />
        <input type="hidden" name="protocol" value={protocol} />
        <FormAlert failure={failure} nothingDone="Nothing was saved." />
        <ErrorList errors={errors?.protocol} />
        <Field
          label="Display name"
          name="name"
          required
          defaultValue={value("name", editing?.name)}
          hint="On the sign-in button: “Sign in with …”."
          errors={errors?.name}
        />
        <form.Fields editing={editing} value={value} checked={checked} errors={errors} />
        <TextareaField
          label="Email domains"
          name="domains"
          rows={3}
          required
          placeholder={"example.com\nexample.co.uk"}
          defaultValue={value("domains", editing?.domains.join("\n"))}
          hint="One a line. People with an address of these domains sign in with this provider; it can sign in no other address."
          errors={errors?.domains}
        />
        <fieldset className="space-y-4">
          <legend className="sr-only">Options</legend>
          <Checkbox
            name="requireSso"
            defaultChecked={checked("requireSso")}
            label="Require single sign-on for these domains"
            hint="Their people cannot sign in with a password or reset one. The addresses in ADMIN_EMAILS keep their password, so a broken provider cannot lock you out."
            errors={errors?.requireSso}
          />
          <Checkbox
            name="refreshCard"
            defaultChecked={checked("refreshCard")}
            label="Refresh cards at each sign-in"
            hint="Names, job titles, departments, offices and phone numbers the provider sends replace those on the card. Otherwise they fill a card only at the first sign-in."
            errors={errors?.refreshCard}
          />
          <Checkbox
            name="verifiesAddresses"
            defaultChecked={checked("verifiesAddresses")}
            label="The provider verifies the addresses of these domains"
            hint="Tick it for your company's own directory (Entra ID, Okta, Google Workspace, ADFS): someone who already has a Namecard account with such an address is linked to it at their first sign-in. Left unticked, an existing account is linked only when the provider says the address is verified (email_verified)."
            errors={errors?.verifiesAddresses}
          />
          <form.Options editing={editing} value={value} checked={checked} errors={errors} />
        </fieldset>
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          {editing ? (
            <ButtonLink to={PAGE} variant="secondary">
              Cancel
            </ButtonLink>
          ) : null}
          <Button type="submit" disabled={saving}>
            {saving ? "Checking the provider..." : editing ? "Save provider" : "Add provider"}
          </Button>
        </div>
      </Form>
    </section>
  );
}

type CheckboxName = "requireSso" | "refreshCard" | "idpInitiated" | "verifiesAddresses";

/** What a protocol's part of the provider form is given: what was typed or stored, and the errors. */
type FieldsProps = {
  editing: Provider | null;
  value: (name: string, stored: string | null | undefined) => string;
  checked: (name: CheckboxName) => boolean;
  errors: Record<string, string[] | undefined> | undefined;
};

/** Namecard's own addresses, which an administrator copies into the provider. */
type Addresses = SamlAddresses & { redirectUrl: string };

/**
 * Each protocol's part of the provider form: what to do at the provider, the
 * addresses to copy there, its settings and its options. A protocol added to
 * app/lib/identity-protocols.ts fails the type check here until it has one.
 */
const PROTOCOL_FORMS: Record<
  IdentityProtocol,
  {
    intro: string;
    Addresses: (props: { addresses: Addresses }) => ReactNode;
    Fields: (props: FieldsProps) => ReactNode;
    Options: (props: FieldsProps) => ReactNode;
  }
> = {
  oidc: {
    intro:
      "Register Namecard at your provider as a web application with this redirect URL (the same for every provider), then enter what it gives you.",
    Addresses: ({ addresses }) => <CopyField id="redirect-url" label="Redirect URL" value={addresses.redirectUrl} />,
    Fields: OidcFields,
    Options: () => null,
  },
  saml: {
    intro:
      "Register Namecard at your provider as a SAML application with these addresses (the same for every provider), then paste what it gives you.",
    Addresses: ({ addresses }) => (
      <div className="grid gap-4 sm:grid-cols-2">
        <CopyField id="sp-entity-id" label="Entity ID (audience)" value={addresses.entityId} />
        <CopyField id="sp-acs-url" label="Assertion consumer service (ACS) URL" value={addresses.acsUrl} />
        <div className="sm:col-span-2">
          <CopyField id="sp-metadata-url" label="Namecard's metadata URL" value={addresses.metadataUrl} />
        </div>
      </div>
    ),
    Fields: SamlFields,
    Options: ({ checked, errors }) => (
      <Checkbox
        name="idpInitiated"
        defaultChecked={checked("idpInitiated")}
        label="Let the provider start sign-ins (IdP-initiated)"
        hint="People can then open Namecard from the provider's app list. Such a sign-in answers no request of this browser, so a page elsewhere could sign someone in as another person: leave it off unless your people need it."
        errors={errors?.idpInitiated}
      />
    ),
  },
};

function OidcFields({ editing, value, errors }: FieldsProps) {
  return (
    <div className="grid gap-5 sm:grid-cols-2">
      <Field
        label="Issuer URL"
        name="issuer"
        type="url"
        className="sm:col-span-2"
        required
        placeholder="https://login.example.com"
        defaultValue={value("issuer", editing?.issuer)}
        hint="Its settings are read from /.well-known/openid-configuration under it."
        errors={errors?.issuer}
      />
      <Field
        label="Client ID"
        name="clientId"
        required
        autoComplete="off"
        defaultValue={value("clientId", editing?.clientId)}
        errors={errors?.clientId}
      />
      <Field
        label={editing ? "Replace client secret" : "Client secret"}
        name="clientSecret"
        type="password"
        required={!editing}
        autoComplete="new-password"
        placeholder={editing ? "Set · leave empty to keep it" : undefined}
        hint="Stored encrypted, and never shown again."
        errors={errors?.clientSecret}
      />
    </div>
  );
}

function SamlFields({ editing, value, errors }: FieldsProps) {
  return (
    <div className="space-y-5">
      <TextareaField
        label={editing ? "Replace with new metadata" : "Provider metadata (XML)"}
        name="metadata"
        rows={5}
        spellCheck={false}
        placeholder={'<EntityDescriptor entityID="https://idp.example.com/…">…'}
        defaultValue={value("metadata", undefined)}
        hint="Paste the metadata XML your provider offers for download; it holds the three settings below. Or leave it empty and fill them in."
        errors={errors?.metadata}
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <Field
          label="Entity ID"
          name="entityId"
          autoComplete="off"
          placeholder="https://idp.example.com/metadata"
          defaultValue={value("entityId", editing?.issuer)}
          hint="The provider's issuer."
          errors={errors?.entityId}
        />
        <Field
          label="Sign-in URL"
          name="ssoUrl"
          type="url"
          autoComplete="off"
          placeholder="https://idp.example.com/sso/saml"
          defaultValue={value("ssoUrl", editing?.ssoUrl)}
          hint="Its single sign-on URL for the HTTP-Redirect binding."
          errors={errors?.ssoUrl}
        />
      </div>
      <TextareaField
        label={editing ? "Replace signing certificate" : "Signing certificate"}
        name="certificate"
        rows={4}
        spellCheck={false}
        placeholder={editing ? "Set · leave empty to keep it" : "-----BEGIN CERTIFICATE-----"}
        hint="Stored encrypted, and never shown again: only its fingerprint. Responses must be signed with SHA-256 or stronger."
        errors={errors?.certificate}
      />
    </div>
  );
}

function Checkbox({
  name,
  label,
  hint,
  defaultChecked,
  errors,
}: {
  name: string;
  label: string;
  hint: string;
  defaultChecked: boolean;
  errors: string[] | undefined;
}) {
  const hintId = `${fieldId(name)}-hint`;
  return (
    <div id={fieldId(name)} tabIndex={-1} className="outline-none">
      <label className="flex items-start gap-3 text-sm font-medium">
        <input
          type="checkbox"
          name={name}
          value="on"
          defaultChecked={defaultChecked}
          aria-describedby={hintId}
          className="mt-0.5 size-4 shrink-0 accent-[var(--color-brand-solid)]"
        />
        <span>
          {label}
          <span id={hintId} className="mt-1 block text-xs font-normal text-slate-500 dark:text-slate-400">
            {hint}
          </span>
        </span>
      </label>
      <ErrorList errors={errors} />
    </div>
  );
}
