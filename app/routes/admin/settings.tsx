import { KeyRound, PlugZap, ShieldCheck, TriangleAlert, Wallet } from "lucide-react";
import { Tabs } from "radix-ui";
import { useEffect, useState } from "react";
import { Form, Link, useNavigation, useSearchParams, useSubmit } from "react-router";
import { z } from "zod";
import {
  accountsOutsideRule,
  deactivateAccountsOutsideRule,
  defaultJoinDomains,
  getJoinRule,
} from "~/.server/accounts/join-rule";
import { requirePermission, type Viewer } from "~/.server/http/authz";
import {
  type BodyHandle,
  formText,
  imageChange,
  MAX_SETTINGS_FORM_BYTES,
  readUploadForm,
} from "~/.server/http/form-data";
import { failure, failureFrom } from "~/.server/http/responses";
import { redirectWithToast } from "~/.server/http/toast";
import { REMINDER_DEFAULTS } from "~/.server/invitations/invitations";
import { eraseLeadsOf } from "~/.server/leads/retention";
import { env } from "~/.server/platform/env";
import { ValidationError } from "~/.server/platform/errors";
import { getStoredSettings, storedImageKey } from "~/.server/platform/site-settings";
import { EmailSchema, fieldErrors } from "~/.server/platform/validation";
import { fieldPoliciesFromForm, policiesFrom } from "~/.server/profiles/visibility";
import {
  SITE_IMAGE_FIELDS,
  type SiteImageChanges,
  saveSiteSettings,
  siteImageErrors,
} from "~/.server/settings/save-settings";
import { SettingsSchema } from "~/.server/settings/schemas";
import { signInProviders } from "~/.server/sso/providers";
import { FormAlert } from "~/components/form-alert";
import { ErrorList, Field, fieldId, SelectField, TextareaField } from "~/components/forms";
import { ImagePicker } from "~/components/image-picker";
import { PageHeader } from "~/components/page-header";
import { Alert } from "~/components/ui/alert";
import { Button, ButtonLink } from "~/components/ui/button";
import { Confirm } from "~/components/ui/dialog";
import type { FieldErrors } from "~/lib/action-result";
import {
  CARD_FIELD_KEYS,
  CARD_FIELDS,
  type FieldPolicies,
  VISIBILITY_HINTS,
  VISIBILITY_LABELS,
} from "~/lib/card-fields";
import { LEAD_RETENTION_DEFAULT_MONTHS, LEAD_RETENTION_MAX_MONTHS } from "~/lib/leads";
import { MAX_SITE_IMAGE_BYTES, SITE_IMAGE_TOO_LARGE } from "~/lib/limits";
import { mediaUrl } from "~/lib/media";
import { DEFAULT_SETTINGS, FONT_FAMILIES } from "~/lib/settings";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/settings";

const TAB =
  "rounded-md px-2 py-2 text-sm font-medium sm:px-4 text-slate-600 data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm dark:text-slate-400 dark:data-[state=active]:bg-slate-800 dark:data-[state=active]:text-white";
const PANEL =
  "space-y-5 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm data-[state=inactive]:hidden sm:p-8 dark:border-slate-800 dark:bg-slate-900";

const LOGO_HINT = "JPG, PNG or WebP up to 2MB. A transparent background works best.";
const FAVICON_HINT = "JPG, PNG or WebP up to 2MB, at least 32 × 32 pixels. Square images work best.";

/** The site's own images, each uploaded through its picker. */
const SITE_IMAGES = [
  { name: "primaryLogo", label: "Logo", shape: "logo", hint: LOGO_HINT },
  {
    name: "darkModeLogo",
    label: "Dark-mode logo",
    shape: "logo",
    surface: "dark",
    hint: `${LOGO_HINT} Shown in dark mode; without it, the logo is.`,
  },
  { name: "favicon", label: "Favicon", shape: "square", hint: FAVICON_HINT },
  { name: "footerLogo", label: "Footer logo", shape: "logo", hint: LOGO_HINT },
] as const;

const TABS = [
  {
    value: "general",
    label: "General",
    fields: ["companyName", "website", "email", "phone", "description", "address", "deactivatedCards"],
  },
  {
    value: "branding",
    label: "Branding",
    fields: [
      "primaryColor",
      "secondaryColor",
      "accentColor",
      "fontFamily",
      "primaryLogo",
      "darkModeLogo",
      "favicon",
      "footerLogo",
    ],
  },
  {
    value: "legal",
    label: "Legal & privacy",
    fields: [
      "showStatsToVisitors",
      "termsOfService",
      "privacyPolicy",
      "leadRetentionMonths",
      "adminsSeeLeads",
      "eraseEmail",
    ],
  },
  { value: "invitations", label: "Invitations", fields: ["autoReminders", "reminderAfterDays", "reminderMaxCount"] },
  { value: "joining", label: "Who can join", fields: ["joinRule", "joinDomains"] },
  { value: "fields", label: "Card fields", fields: [] },
  { value: "security", label: "Security", fields: [] },
] as const;

function tabOf(field: string) {
  if (field.startsWith("fieldPolicy.")) return "fields";
  return TABS.find((tab) => (tab.fields as readonly string[]).includes(field))?.value;
}

/** Its form carries the legal texts and four images: the server allows such a body (server/routes.ts). */
export const handle: BodyHandle = { bodyLimit: "settings" };

export const meta: Route.MetaFunction = () => [{ title: "System Settings" }];

type TextSetting = Exclude<keyof typeof DEFAULT_SETTINGS, (typeof SITE_IMAGE_FIELDS)[number] | "showStatsToVisitors">;

/** The people a stricter rule leaves outside, as the deactivation form sends them. */
const DeactivateOutsideSchema = z.object({
  // One field for them all (a form has at most a few thousand fields): the ids, comma-separated.
  profileIds: z
    .string({ message: "Choose accounts from the list" })
    .transform((value) => value.split(",").filter(Boolean))
    .pipe(z.array(z.uuid("Choose accounts from the list")).min(1, "Choose accounts from the list").max(100_000)),
});

const OUTSIDE_FORM = "outside-accounts";
/** How many of the people outside the rule the page lists by name. */
const OUTSIDE_SHOWN = 50;

/** The reminder settings as the form shows them. */
function reminderValues(stored: Awaited<ReturnType<typeof getStoredSettings>>) {
  return {
    autoReminders: stored?.autoReminders ? "on" : "",
    reminderAfterDays: String(stored?.reminderAfterDays ?? REMINDER_DEFAULTS.after),
    reminderMaxCount: String(stored?.reminderMaxCount ?? REMINDER_DEFAULTS.max),
  };
}

export async function loader({ context }: Route.LoaderArgs) {
  const viewer = context.get(viewerContext);
  const stored = await getStoredSettings();
  const values = Object.fromEntries(
    Object.keys(DEFAULT_SETTINGS)
      .filter((key) => !(SITE_IMAGE_FIELDS as readonly string[]).includes(key) && key !== "showStatsToVisitors")
      .map((key) => [key, (stored?.[key as TextSetting] as string | null) ?? ""]),
  ) as Record<TextSetting, string>;
  const showStats = stored?.showStatsToVisitors ?? DEFAULT_SETTINGS.showStatsToVisitors;
  const images = Object.fromEntries(
    SITE_IMAGE_FIELDS.map((field) => [field, mediaUrl(storedImageKey(stored?.[field]))]),
  ) as Record<(typeof SITE_IMAGE_FIELDS)[number], string | null>;
  const outside = await accountsOutsideRule(await getJoinRule());
  return {
    values: {
      ...values,
      showStatsToVisitors: showStats ? "shown" : "hidden",
      deactivatedCards: stored?.deactivatedCards ?? "gone",
      ...reminderValues(stored),
      leadRetentionMonths: String(stored?.leadRetentionMonths ?? LEAD_RETENTION_DEFAULT_MONTHS),
      adminsSeeLeads: stored?.adminsSeeLeads ? "on" : "",
      joinRule: stored?.joinRule ?? "domains",
      // A new installation starts with the administrators' domains.
      joinDomains: stored?.joinDomains ?? defaultJoinDomains().join("\n"),
    },
    outside: {
      total: outside.length,
      ids: outside.map((account) => account.profileId),
      shown: outside
        .slice(0, OUTSIDE_SHOWN)
        .map((account) => ({ ...account, joinedAt: account.joinedAt.toISOString() })),
    },
    images,
    fieldPolicies: policiesFrom(stored?.fieldPolicies),
    // Pickers start afresh after each save, so a file once sent is not sent again.
    savedAt: stored?.updatedAt.toISOString() ?? "never",
    adminEmail: viewer.user.email,
    adminCount: env.ADMIN_EMAILS.length,
    ssoProviders: (await signInProviders()).map((provider) => provider.name),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requirePermission(context.get(viewerContext), "update:settings:any");
  const { form } = await readUploadForm(request, MAX_SETTINGS_FORM_BYTES);
  if (!form) return failure(413, { formError: "Each image can be up to 2MB. Choose smaller files." });
  if (form.get("intent") === "deactivate-outside") return deactivateOutside(viewer, form);
  if (form.get("intent") === "erase-leads") return eraseLeads(viewer, form);
  const values = formText(form);
  try {
    const images = Object.fromEntries(
      await Promise.all(SITE_IMAGE_FIELDS.map(async (field) => [field, await imageChange(form, field)] as const)),
    ) as SiteImageChanges;
    // Every mistake in one round: the text fields' and the files'.
    const errors: FieldErrors = { ...(await siteImageErrors(images)) };
    for (const field of SITE_IMAGE_FIELDS) {
      // Only a file is an image: an address typed or sent in its place is not taken.
      if (typeof form.get(field) === "string" && form.get(field) !== "") {
        errors[field] = ["Choose an image file to upload."];
      }
    }
    const parsed = SettingsSchema.safeParse(values);
    if (!parsed.success) Object.assign(errors, fieldErrors(parsed.error));
    let fieldPolicies: FieldPolicies | null = null;
    try {
      fieldPolicies = fieldPoliciesFromForm(values);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      Object.assign(errors, error.fieldErrors);
    }
    if (!parsed.success || Object.keys(errors).length) throw new ValidationError(errors);
    await saveSiteSettings({ actor: viewer, values: parsed.data, images, fieldPolicies });
    return redirectWithToast("/admin/settings", { text: "Settings saved successfully!" });
  } catch (error) {
    return failureFrom(error, { values, unexpected: "Failed to save settings. Please try again." });
  }
}

/** Erases what visitors with one address shared, from every card (the right to be forgotten). */
async function eraseLeads(viewer: Viewer, form: FormData) {
  const typed = String(form.get("eraseEmail") ?? "");
  const parsed = EmailSchema.safeParse(typed);
  if (!parsed.success) {
    return failure(400, {
      fieldErrors: { eraseEmail: [parsed.error.issues[0]?.message ?? "Enter an email address"] },
      values: { eraseEmail: typed },
    });
  }
  const erased = await eraseLeadsOf(viewer, parsed.data);
  return redirectWithToast("/admin/settings?tab=legal", {
    text:
      erased === 0
        ? "No card held details with that address. The erasure is on the record."
        : `${erased === 1 ? "1 lead" : `${erased} leads`} with that address ${erased === 1 ? "was" : "were"} erased from every card.`,
  });
}

/** Deactivates the people the saved rule leaves outside, as listed on the page. */
async function deactivateOutside(viewer: Viewer, form: FormData) {
  requirePermission(viewer, "deactivate:profile:any");
  try {
    const { profileIds } = DeactivateOutsideSchema.parse({ profileIds: form.get("profileIds") ?? undefined });
    const count = await deactivateAccountsOutsideRule({ actor: viewer, profileIds });
    return redirectWithToast("/admin/settings?tab=joining", {
      text:
        count === 1
          ? "1 account was deactivated: they are signed out and their card is hidden."
          : `${count} accounts were deactivated: they are signed out and their cards are hidden.`,
    });
  } catch (error) {
    return failureFrom(error, { unexpected: "Failed to deactivate the accounts. Please try again." });
  }
}

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const { adminEmail, adminCount, images, savedAt, outside, ssoProviders } = loaderData;
  // After a failed save the form shows what was typed, with or without JavaScript.
  const values = { ...loaderData.values, ...actionData?.values };
  const navigation = useNavigation();
  const saving = navigation.state === "submitting";
  const errors = actionData?.fieldErrors;
  const [searchParams] = useSearchParams();
  const [tab, setTab] = useState<string>(() => {
    const asked = searchParams.get("tab");
    return TABS.some((candidate) => candidate.value === asked) ? (asked as string) : "general";
  });
  const tabsWithErrors = new Set(
    Object.entries(errors ?? {})
      .filter(([, messages]) => messages?.length)
      .map(([field]) => tabOf(field)),
  );
  // After a failed save the first tab holding an error is shown.
  useEffect(() => {
    const failed = Object.entries(actionData?.fieldErrors ?? {})
      .filter(([, messages]) => messages?.length)
      .map(([field]) => tabOf(field));
    const first = TABS.find((candidate) => failed.includes(candidate.value));
    if (first) setTab(first.value);
  }, [actionData]);

  const text = (name: TextSetting, label: string, extra: Partial<React.ComponentProps<typeof Field>> = {}) => (
    <Field
      label={label}
      name={name}
      defaultValue={values[name]}
      placeholder={(DEFAULT_SETTINGS[name] as string | null) ?? undefined}
      errors={errors?.[name]}
      {...extra}
    />
  );

  return (
    <>
      <Form method="post" encType="multipart/form-data" noValidate className="max-w-4xl">
        <PageHeader
          title="System Settings"
          description="Company details, branding and legal texts for the whole site."
        />
        <div className="mb-6 empty:hidden">
          <FormAlert
            failure={actionData}
            nothingDone="Nothing was saved."
            onFieldLink={(field) => {
              const owner = tabOf(field);
              if (owner) setTab(owner);
            }}
          />
        </div>
        <Tabs.Root value={tab} onValueChange={setTab}>
          {/* Three to a row on a phone, one row where they fit: every tab is seen without scrolling sideways. */}
          <Tabs.List
            aria-label="Settings"
            className="mb-6 grid grid-cols-3 gap-1 rounded-lg bg-slate-100 p-1 sm:inline-flex sm:flex-wrap sm:gap-0 dark:bg-slate-900"
          >
            {TABS.map(({ value, label }) => (
              <Tabs.Trigger key={value} value={value} className={TAB}>
                {label}
                {tabsWithErrors.has(value) ? (
                  <span data-testid="tab-error" className="ml-2 inline-flex items-center">
                    <span aria-hidden className="size-2 rounded-full bg-red-600 dark:bg-red-400" />
                    <span className="sr-only"> (has errors)</span>
                  </span>
                ) : null}
              </Tabs.Trigger>
            ))}
          </Tabs.List>

          {/* Every panel stays in the form, so one Save sends all of them. */}
          <Tabs.Content value="general" forceMount className={PANEL}>
            <div className="grid gap-4 sm:grid-cols-2">
              {text("companyName", "Company name")}
              {text("website", "Website", { type: "url", placeholder: "https://example.com" })}
              {text("email", "Email", { type: "email", placeholder: "hello@example.com" })}
              {text("phone", "Phone", { type: "tel", placeholder: "" })}
            </div>
            <TextareaField
              label="Description"
              name="description"
              rows={3}
              defaultValue={values.description}
              placeholder={DEFAULT_SETTINGS.description}
              errors={errors?.description}
            />
            <TextareaField
              label="Address"
              name="address"
              rows={3}
              defaultValue={values.address}
              errors={errors?.address}
            />
            <p className="text-sm text-slate-500 dark:text-slate-400">Empty fields use the default shown in grey.</p>
            <div className="border-t border-slate-200 pt-5 dark:border-slate-800">
              <DeactivatedCardsField defaultValue={values.deactivatedCards} errors={errors?.deactivatedCards} />
            </div>
          </Tabs.Content>

          <Tabs.Content value="branding" forceMount className={PANEL}>
            <div className="grid gap-4 sm:grid-cols-3">
              {(
                [
                  ["primaryColor", "Primary colour"],
                  ["secondaryColor", "Secondary colour"],
                  ["accentColor", "Accent colour"],
                ] as const
              ).map(([name, label]) => (
                <ColorField
                  key={name}
                  name={name}
                  label={label}
                  stored={values[name]}
                  fallback={DEFAULT_SETTINGS[name]}
                  errors={errors?.[name]}
                />
              ))}
            </div>
            <SelectField
              label="Font"
              name="fontFamily"
              defaultValue={values.fontFamily || "Inter"}
              errors={errors?.fontFamily}
              options={FONT_FAMILIES.map((font) => ({ value: font, label: font }))}
            />
            <fieldset className="space-y-5">
              <legend className="mb-1 text-base font-semibold">Logos and favicon</legend>
              <p className="text-sm text-slate-500 dark:text-slate-400">
                Uploaded to this site and served from it, so no visitor's browser is sent anywhere else. The logo
                appears beside the company name in the header, on the sign-in screen and on error pages.
              </p>
              <div className="grid gap-6 lg:grid-cols-2">
                {SITE_IMAGES.map(({ name, ...picker }) => (
                  <ImagePicker
                    key={`${name} ${images[name]} ${savedAt}`}
                    name={name}
                    currentUrl={images[name]}
                    errors={errors?.[name]}
                    maxBytes={MAX_SITE_IMAGE_BYTES}
                    tooLarge={SITE_IMAGE_TOO_LARGE}
                    {...picker}
                  />
                ))}
              </div>
            </fieldset>
          </Tabs.Content>

          <Tabs.Content value="legal" forceMount className={PANEL}>
            <VisitorStatsField defaultValue={values.showStatsToVisitors} errors={errors?.showStatsToVisitors} />
            <LeadsFieldset values={values} errors={errors} />
            <TextareaField
              label="Terms of service"
              name="termsOfService"
              rows={10}
              defaultValue={values.termsOfService}
              hint="Published at /terms and linked from sign-up and the footer. Leave empty to publish nothing."
              errors={errors?.termsOfService}
            />
            <TextareaField
              label="Privacy policy"
              name="privacyPolicy"
              rows={10}
              defaultValue={values.privacyPolicy}
              hint="Published at /privacy and linked from sign-up and the footer."
              errors={errors?.privacyPolicy}
            />
          </Tabs.Content>

          <Tabs.Content value="invitations" forceMount className={PANEL}>
            <ReminderFieldset values={values} errors={errors} />
          </Tabs.Content>

          <Tabs.Content value="joining" forceMount className={PANEL}>
            <JoinRuleFieldset values={values} errors={errors} />
            <OutsideAccounts outside={outside} />
          </Tabs.Content>

          <Tabs.Content value="fields" forceMount className={PANEL}>
            <FieldPoliciesPanel policies={loaderData.fieldPolicies} values={values} errors={errors} />
          </Tabs.Content>

          <Tabs.Content value="security" forceMount className={PANEL}>
            <div className="flex gap-3">
              <ShieldCheck aria-hidden className="size-6 shrink-0 text-emerald-600" />
              <div className="space-y-3 text-sm text-slate-700 dark:text-slate-300">
                <p>
                  <strong>Administrators are a role.</strong> Give it and take it back on the Profiles page. The
                  addresses in the server's{" "}
                  <code className="rounded bg-slate-100 px-1 dark:bg-slate-800">ADMIN_EMAILS</code> setting (
                  {adminCount} {adminCount === 1 ? "address" : "addresses"}) are always administrators, and keep their
                  password even where single sign-on is required.
                </p>
                <p>
                  You are signed in as <strong>{adminEmail}</strong>.
                </p>
                <p>
                  <strong>Authorization is enforced on the server</strong> for every page and every action, whatever the
                  browser shows or sends. Members can change only their own card; claim status is never sent to them.
                </p>
                <p>
                  Accounts need a confirmed email address, sign-in attempts are rate-limited, and sessions are kept in
                  httpOnly cookies.
                </p>
              </div>
            </div>
            <div className="flex flex-col gap-4 border-t border-slate-200 pt-5 sm:flex-row sm:items-center sm:justify-between dark:border-slate-800">
              <div className="space-y-1">
                <h2 className="text-base font-semibold">Single sign-on</h2>
                <p className="text-sm text-slate-600 dark:text-slate-400">
                  {ssoProviders.length === 0
                    ? "People sign in with a password. Connect your identity provider to let them use it instead."
                    : `People of your provider's domains sign in with ${ssoProviders.join(", ")}.`}
                </p>
              </div>
              <ButtonLink to="/admin/settings/single-sign-on" variant="secondary" className="shrink-0">
                <KeyRound aria-hidden className="size-4" />
                {ssoProviders.length === 0 ? "Set up single sign-on" : "Manage single sign-on"}
              </ButtonLink>
            </div>
            <div className="flex flex-col gap-4 border-t border-slate-200 pt-5 sm:flex-row sm:items-center sm:justify-between dark:border-slate-800">
              <div className="space-y-1">
                <h2 className="text-base font-semibold">Provisioning</h2>
                <p className="text-sm text-slate-600 dark:text-slate-400">
                  Let your identity provider create, update and switch off cards by itself (SCIM 2.0).
                </p>
              </div>
              <ButtonLink to="/admin/settings/provisioning" variant="secondary" className="shrink-0">
                <PlugZap aria-hidden className="size-4" />
                Provisioning
              </ButtonLink>
            </div>
            <div className="flex flex-col gap-4 border-t border-slate-200 pt-5 sm:flex-row sm:items-center sm:justify-between dark:border-slate-800">
              <div className="space-y-1">
                <h2 className="text-base font-semibold">Wallet passes</h2>
                <p className="text-sm text-slate-600 dark:text-slate-400">
                  Let members keep their card in Google Wallet, with its QR code.
                </p>
              </div>
              <ButtonLink to="/admin/settings/wallet" variant="secondary" className="shrink-0">
                <Wallet aria-hidden className="size-4" />
                Wallet passes
              </ButtonLink>
            </div>
          </Tabs.Content>
        </Tabs.Root>
        {/* Where the form ends, on a phone too: the one Save sends every tab. */}
        <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-end">
          <p className="text-sm text-slate-500 sm:mr-auto dark:text-slate-400">Saves every tab at once.</p>
          <Button type="submit" disabled={saving}>
            {saving ? "Saving..." : "Save Settings"}
          </Button>
        </div>
      </Form>
      <OutsideAccountsForm ids={outside.ids} />
      <Form id={ERASE_FORM} method="post" encType="multipart/form-data" hidden>
        <input type="hidden" name="intent" value="erase-leads" />
      </Form>
    </>
  );
}

const JOIN_OPTIONS = [
  { value: "domains", label: "People with an address at these domains" },
  { value: "invited", label: "Only people an administrator added, imported or invited" },
  { value: "anyone", label: "Anyone who has the link" },
] as const;

/** Who may make an account (docs/decisions/024-who-can-join.md). */
function JoinRuleFieldset({
  values,
  errors,
}: {
  values: { joinRule?: string; joinDomains?: string };
  errors?: Record<string, string[] | undefined>;
}) {
  const [rule, setRule] = useState(values.joinRule ?? "domains");
  return (
    <fieldset
      id={fieldId("joinRule")}
      tabIndex={-1}
      aria-describedby="join-rule-hint"
      className="space-y-4 outline-none"
    >
      <legend className="mb-1 text-base font-semibold">Who can join</legend>
      <p id="join-rule-hint" className="text-sm text-slate-500 dark:text-slate-400">
        Everyone who joins gets a card and can read the whole directory, with colleagues' email addresses and phone
        numbers. People an administrator added, imported or invited can always join, and so can the administrators.
      </p>
      <div className="flex flex-col gap-3">
        {JOIN_OPTIONS.map((option) => (
          <div key={option.value} className="space-y-3">
            <label className="flex items-center gap-2 text-sm font-medium">
              <input
                type="radio"
                name="joinRule"
                value={option.value}
                defaultChecked={(values.joinRule ?? "domains") === option.value}
                onChange={() => setRule(option.value)}
                className="size-4 accent-[var(--color-brand-solid)]"
              />
              {option.label}
            </label>
            {option.value === "domains" ? (
              <div className="ml-6">
                <TextareaField
                  label="Domains"
                  name="joinDomains"
                  rows={3}
                  defaultValue={values.joinDomains}
                  placeholder="example.com"
                  hint="One a line, such as example.com. Addresses at their subdomains count too."
                  errors={errors?.joinDomains}
                />
              </div>
            ) : null}
          </div>
        ))}
      </div>
      {rule === "anyone" ? (
        <Alert tone="warning">
          Anyone on the internet who finds the sign-up page could make an account and read every colleague's email
          address and phone number. Choose this only for a directory that is meant to be public.
        </Alert>
      ) : null}
      <ErrorList errors={errors?.joinRule} />
    </fieldset>
  );
}

/**
 * The people who joined by themselves and whom the saved rule leaves outside,
 * with one step to deactivate them all. Its form stands outside the settings
 * form (forms cannot nest); the button names it.
 */
function OutsideAccounts({ outside }: { outside: { total: number; ids: string[]; shown: OutsideAccountRow[] } }) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const [confirming, setConfirming] = useState(false);
  if (outside.total === 0) return null;
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "deactivate-outside";
  const count = outside.total === 1 ? "1 account" : `${outside.total} accounts`;
  return (
    <section aria-labelledby="outside-title" className="space-y-4 border-t border-slate-200 pt-5 dark:border-slate-800">
      <div className="flex gap-3">
        <TriangleAlert aria-hidden className="mt-0.5 size-5 shrink-0 text-amber-600 dark:text-amber-400" />
        <div className="space-y-1">
          <h2 id="outside-title" className="text-base font-semibold">
            {outside.total === 1
              ? "1 person who joined is outside the saved rule"
              : `${outside.total} people who joined are outside the saved rule`}
          </h2>
          <p className="text-sm text-slate-500 dark:text-slate-400">
            They made their accounts themselves and could not join today. Deactivating signs them out at once and hides
            their cards; you can reactivate any of them under Manage Profiles.
          </p>
        </div>
      </div>
      <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-800">
        <table className="w-full text-left text-sm">
          <thead className="bg-slate-50 text-slate-600 dark:bg-slate-950 dark:text-slate-400">
            <tr>
              <th scope="col" className="px-4 py-2 font-medium">
                Name
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                Email
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                Joined
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
            {outside.shown.map((account) => (
              <tr key={account.profileId}>
                <td className="px-4 py-2">
                  <Link to={`/profile/${account.username}`} className="font-medium text-brand-ink hover:underline">
                    {account.name}
                  </Link>
                </td>
                <td className="px-4 py-2 break-all">{account.email}</td>
                <td className="px-4 py-2 whitespace-nowrap">{account.joinedAt.slice(0, 10)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {outside.total > outside.shown.length ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">And {outside.total - outside.shown.length} more.</p>
      ) : null}
      <Button
        type="submit"
        form={OUTSIDE_FORM}
        variant="destructive"
        disabled={busy}
        onClick={(event) => {
          // With JavaScript the choice is confirmed first; without it the button sends the form at once.
          event.preventDefault();
          setConfirming(true);
        }}
      >
        {busy ? "Deactivating..." : `Deactivate these ${count}`}
      </Button>
      <Confirm
        open={confirming}
        onOpenChange={setConfirming}
        title={`Deactivate ${count}?`}
        confirmLabel={`Deactivate ${count}`}
        busy={busy}
        onConfirm={() => {
          setConfirming(false);
          const form = document.getElementById(OUTSIDE_FORM);
          if (form instanceof HTMLFormElement) submit(form);
        }}
      >
        <p>They are signed out at once and their cards are hidden from the directory and the web.</p>
      </Confirm>
    </section>
  );
}

type OutsideAccountRow = { profileId: string; username: string; name: string; email: string; joinedAt: string };

/** The deactivation form: a sibling of the settings form, since forms cannot nest. */
function OutsideAccountsForm({ ids }: { ids: string[] }) {
  if (ids.length === 0) return null;
  return (
    <Form id={OUTSIDE_FORM} method="post" encType="multipart/form-data" hidden>
      <input type="hidden" name="intent" value="deactivate-outside" />
      <input type="hidden" name="profileIds" value={ids.join(",")} />
    </Form>
  );
}

const ERASE_FORM = "erase-leads";

/** How long leads are kept, whether administrators read them, and erasing one visitor's details. */
function LeadsFieldset({
  values,
  errors,
}: {
  values: { leadRetentionMonths?: string; adminsSeeLeads?: string; eraseEmail?: string };
  errors?: Record<string, string[] | undefined>;
}) {
  return (
    <fieldset className="space-y-5" aria-describedby="leads-hint">
      <legend className="mb-1 text-base font-semibold">Leads</legend>
      <p id="leads-hint" className="text-sm text-slate-500 dark:text-slate-400">
        Visitors may share their details from a card with its owner. The privacy page tells them how long they are kept.
      </p>
      <Field
        label="Keep leads for (months)"
        name="leadRetentionMonths"
        inputMode="numeric"
        className="max-w-xs"
        defaultValue={values.leadRetentionMonths}
        hint={`Older leads are deleted automatically. 1 to ${LEAD_RETENTION_MAX_MONTHS}.`}
        errors={errors?.leadRetentionMonths}
      />
      <div id={fieldId("adminsSeeLeads")} tabIndex={-1} className="outline-none">
        <label className="flex items-start gap-2 text-sm font-medium">
          <input
            type="checkbox"
            name="adminsSeeLeads"
            value="on"
            defaultChecked={values.adminsSeeLeads === "on"}
            className="mt-0.5 size-4 accent-[var(--color-brand-solid)]"
          />
          Administrators may read every card's leads
        </label>
        <p className="mt-1 ml-6 text-xs text-slate-500 dark:text-slate-400">
          Off: administrators see only how many leads each card has.
        </p>
        <ErrorList errors={errors?.adminsSeeLeads} />
      </div>
      <div className="space-y-2 rounded-xl border border-slate-200 p-4 dark:border-slate-800">
        <p className="text-sm font-medium">Erase a visitor's details</p>
        <p className="text-xs text-slate-500 dark:text-slate-400">
          Deletes every lead with this email address, on every card. The audit log records that an erasure was done,
          never the address.
        </p>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
          <Field
            label="Visitor's email"
            name="eraseEmail"
            type="email"
            form={ERASE_FORM}
            autoComplete="off"
            className="flex-1"
            defaultValue={values.eraseEmail}
            errors={errors?.eraseEmail}
          />
          <Button type="submit" form={ERASE_FORM} variant="destructive-outline" className="sm:mt-7.5">
            Erase
          </Button>
        </div>
      </div>
    </fieldset>
  );
}

/** Automatic reminders to people invited who have not claimed their card. */
function ReminderFieldset({
  values,
  errors,
}: {
  values: { autoReminders?: string; reminderAfterDays?: string; reminderMaxCount?: string };
  errors?: Record<string, string[] | undefined>;
}) {
  return (
    <fieldset className="space-y-5" aria-describedby="reminders-hint">
      <legend className="mb-1 text-base font-semibold">Invitation reminders</legend>
      <p id="reminders-hint" className="text-sm text-slate-500 dark:text-slate-400">
        People invited to claim their card who have not done so get a fresh link again, after the number of days you
        choose since their last mail, up to the number of reminders you choose. Each reminder replaces the earlier link.
      </p>
      <div id={fieldId("autoReminders")} tabIndex={-1} className="outline-none">
        <label className="flex items-center gap-2 text-sm font-medium">
          <input
            type="checkbox"
            name="autoReminders"
            value="on"
            defaultChecked={values.autoReminders === "on"}
            className="size-4 accent-[var(--color-brand-solid)]"
          />
          Send reminders automatically
        </label>
        <ErrorList errors={errors?.autoReminders} />
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field
          label="Remind after (days)"
          name="reminderAfterDays"
          inputMode="numeric"
          defaultValue={values.reminderAfterDays}
          hint="Days since the invitation or the last reminder, 1 to 365."
          errors={errors?.reminderAfterDays}
        />
        <Field
          label="Reminders at most"
          name="reminderMaxCount"
          inputMode="numeric"
          defaultValue={values.reminderMaxCount}
          hint="How many reminders one person gets, 1 to 10."
          errors={errors?.reminderMaxCount}
        />
      </div>
    </fieldset>
  );
}

/** What a deactivated card's public addresses answer (docs/decisions/019-deactivation-and-audit-log.md). */
function DeactivatedCardsField({ defaultValue, errors }: { defaultValue: string; errors?: string[] }) {
  const options = [
    { value: "gone", label: "A page saying the card is no longer active" },
    { value: "brand-website", label: "A redirect to the card's brand website" },
  ];
  return (
    <fieldset
      id={fieldId("deactivatedCards")}
      tabIndex={-1}
      aria-describedby="deactivated-cards-hint"
      className="space-y-2 outline-none"
    >
      <legend className="text-sm font-medium text-slate-700 dark:text-slate-300">
        What a deactivated card's address shows
      </legend>
      <p id="deactivated-cards-hint" className="text-sm text-slate-500 dark:text-slate-400">
        For its card page, QR page, contact file and images. A card whose brand has no website always gets the page (410
        Gone).
      </p>
      <div className="flex flex-col gap-2">
        {options.map((option) => (
          <label key={option.value} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name="deactivatedCards"
              value={option.value}
              defaultChecked={defaultValue === option.value}
              className="size-4 accent-[var(--color-brand-solid)]"
            />
            {option.label}
          </label>
        ))}
      </div>
      <ErrorList errors={errors} />
    </fieldset>
  );
}

/** Whether visitors who are not signed in see a card's numbers. */
function VisitorStatsField({ defaultValue, errors }: { defaultValue: string; errors?: string[] }) {
  const options = [
    { value: "shown", label: "Everyone who opens a card" },
    { value: "hidden", label: "Only people who are signed in" },
  ];
  return (
    <fieldset
      id={fieldId("showStatsToVisitors")}
      tabIndex={-1}
      aria-describedby="visitor-stats-hint"
      className="space-y-2 outline-none"
    >
      <legend className="text-sm font-medium text-slate-700 dark:text-slate-300">
        Who sees a card's view count and "Member Since"
      </legend>
      <p id="visitor-stats-hint" className="text-sm text-slate-500 dark:text-slate-400">
        On public cards and QR pages. The card's owner, signed-in members and administrators always see them.
      </p>
      <div className="flex flex-col gap-2 sm:flex-row sm:gap-6">
        {options.map((option) => (
          <label key={option.value} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name="showStatsToVisitors"
              value={option.value}
              defaultChecked={defaultValue === option.value}
              className="size-4 accent-[var(--color-brand-solid)]"
            />
            {option.label}
          </label>
        ))}
      </div>
      <ErrorList errors={errors} />
    </fieldset>
  );
}

function ColorField({
  name,
  label,
  stored,
  fallback,
  errors,
}: {
  name: string;
  label: string;
  stored: string;
  fallback: string;
  errors?: string[];
}) {
  const [value, setValue] = useState(stored);
  return (
    <div>
      <label htmlFor={fieldId(name)} className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-300">
        {label}
      </label>
      <div className="flex items-center gap-2">
        <input
          type="color"
          aria-label={`${label} picker`}
          value={value || fallback}
          onChange={(event) => setValue(event.target.value)}
          className="h-10 w-12 cursor-pointer rounded-lg border border-slate-300 bg-white p-1 dark:border-slate-700 dark:bg-slate-950"
        />
        <input
          id={fieldId(name)}
          name={name}
          value={value}
          placeholder={fallback}
          onChange={(event) => setValue(event.target.value)}
          aria-invalid={errors?.length ? true : undefined}
          className="h-10 w-full rounded-lg border border-slate-300 bg-white px-3 font-mono text-sm dark:border-slate-700 dark:bg-slate-950"
        />
      </div>
      <ErrorList errors={errors} />
    </div>
  );
}

/**
 * Who sees each card field unless its owner chooses otherwise, and whether
 * owners may choose at all: a locked field's value and visibility come from
 * administrators, the import and provisioning only.
 */
function FieldPoliciesPanel({
  policies,
  values,
  errors,
}: {
  policies: FieldPolicies;
  values: Record<string, string | undefined>;
  errors?: FieldErrors;
}) {
  return (
    <fieldset>
      <legend className="text-base font-semibold">Who sees each field</legend>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        A new card starts with these, and each person can change theirs on their profile. Lock a field to apply its
        setting to every card: people then cannot change its value or who sees it. Name, photo and brand are always
        shown.
      </p>
      <ul className="mt-4 divide-y divide-slate-100 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
        {CARD_FIELD_KEYS.map((key) => {
          const name = `fieldPolicy.${key}.visibility`;
          const lockName = `fieldPolicy.${key}.locked`;
          const { label, choices } = CARD_FIELDS[key];
          const sent = values[name];
          const visibility = sent ?? policies[key].visibility;
          const locked = sent === undefined ? policies[key].locked : values[lockName] === "on";
          return (
            <li key={key} className="grid items-center gap-2 px-4 py-3 sm:grid-cols-[minmax(0,1fr)_17rem_6rem]">
              <span className="text-sm font-medium" id={`${fieldId(name)}-label`}>
                {label}
              </span>
              <div>
                <select
                  id={fieldId(name)}
                  name={name}
                  aria-label={`${label} visibility`}
                  defaultValue={visibility}
                  aria-invalid={errors?.[name] ? true : undefined}
                  className="h-9 w-full rounded-lg border border-slate-300 bg-white px-2 text-sm dark:border-slate-700 dark:bg-slate-950"
                >
                  {choices.map((choice) => (
                    <option key={choice} value={choice}>
                      {VISIBILITY_LABELS[choice]} — {VISIBILITY_HINTS[choice]}
                    </option>
                  ))}
                </select>
                <ErrorList errors={errors?.[name]} />
              </div>
              <label className="inline-flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  name={lockName}
                  defaultChecked={locked}
                  aria-label={`Lock ${label}`}
                  className="size-4 rounded border-slate-300"
                />
                Locked
              </label>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
