import { CircleCheck, Contact, Send } from "lucide-react";
import { data, Form, Link, useNavigation } from "react-router";
import { CLIENT_IP_HEADER } from "~/.server/http/auth";
import { getOptionalViewer } from "~/.server/http/authz";
import { cardMissing } from "~/.server/http/card-gone";
import { readForm } from "~/.server/http/form-data";
import { cardLocale, pageLanguage } from "~/.server/http/language";
import { consentFor, formStamp, HONEYPOT_FIELD, type LeadCard, leadSchema, submitLead } from "~/.server/leads/submit";
import { translate } from "~/.server/platform/i18n";
import { getSiteSettings } from "~/.server/platform/site-settings";
import { fieldErrors } from "~/.server/platform/validation";
import { deactivatedCardResponse } from "~/.server/profiles/deactivation";
import { cardForViewer, getCardByUsername } from "~/.server/profiles/get-card";
import { cardFileName } from "~/.server/profiles/vcard";
import { Avatar } from "~/components/avatar";
import { brandScope } from "~/components/brand-badge";
import { ErrorList, Field, fieldId, Honeypot, TextareaField } from "~/components/forms";
import { MissingCard, missingCardTitle } from "~/components/not-found-card";
import { ThemeSwitch } from "~/components/theme-switch";
import { Alert } from "~/components/ui/alert";
import { Button, buttonClasses } from "~/components/ui/button";
import type { ActionFailure } from "~/lib/action-result";
import { useT } from "~/lib/i18n/intl";
import { localeFromQuery, withLanguage } from "~/lib/i18n/negotiate";
import { LEAD_LIMITS, type LeadSource } from "~/lib/leads";
import { mediaUrl } from "~/lib/media";
import { fullName, greetingName } from "~/lib/names";
import type { Route } from "./+types/lead-form";

/**
 * The lead form: a visitor shares their details with a card's owner (docs/decisions/034-leads.md):
 * a plain form that works without JavaScript, on a phone first.
 */

export function meta({ data: loaderData, error, matches }: Route.MetaArgs) {
  if (!loaderData) return [{ title: missingCardTitle(error, matches) }, { name: "robots", content: "noindex" }];
  return [{ title: loaderData.title }, { name: "robots", content: "noindex" }];
}

async function cardOf(username: string, request: Request) {
  const [viewer, stored, site] = await Promise.all([
    getOptionalViewer(request),
    getCardByUsername(username),
    getSiteSettings(),
  ]);
  if (!stored) return null;
  const shown = await cardForViewer(stored, null);
  const card: LeadCard = {
    id: stored.id,
    firstName: stored.firstName,
    lastName: stored.lastName,
    email: stored.email ?? "",
    company: stored.brand?.name ?? site.companyName,
  };
  return {
    card,
    // The form's language: the visitor's, else the card's brand's, else the company's.
    locale: cardLocale(request, stored.brand, site),
    site,
    owner: viewer !== null && viewer.user.id === stored.userId,
    page: {
      firstName: shown.firstName,
      lastName: shown.lastName,
      username: shown.username,
      title: shown.title,
      company: card.company,
      photoUrl: mediaUrl(shown.profilePhoto),
      brand: shown.brand
        ? { primaryColor: shown.brand.primaryColor, secondaryColor: shown.brand.secondaryColor }
        : null,
      vcard: `/profile/${encodeURIComponent(shown.username)}/contact.vcf`,
      vcardName: cardFileName(shown, ".vcf"),
    },
  };
}

function sourceOf(value: string | null): LeadSource {
  return value === "qr" ? "qr" : "card";
}

export async function loader({ params, request }: Route.LoaderArgs) {
  const found = await cardOf(params.username, request);
  if (!found) return cardMissing(params.username, "page");
  const source = sourceOf(new URL(request.url).searchParams.get("src"));
  const { locale } = found;
  return data(
    {
      language: pageLanguage(request, locale, found.site),
      // The language a link named, kept by the page's links back to the card.
      named: localeFromQuery(new URL(request.url)),
      title: translate(locale, "card.shareDetails", { name: fullName(found.card) }),
      card: found.page,
      owner: found.owner,
      consent: await consentFor(found.card, locale),
      stamp: formStamp(found.card.id),
      source,
    },
    // Each form carries the moment it was shown: never cached.
    { headers: { "Cache-Control": "no-store" } },
  );
}

type SentResult = { sent: true; wantsCard: boolean };
type FormFailure = ActionFailure & { stamp?: string };

export async function action({ params, request }: Route.ActionArgs) {
  const found = await cardOf(params.username, request);
  if (!found) {
    // A deactivated card takes no leads, whatever its address otherwise shows.
    if (await deactivatedCardResponse(params.username)) {
      throw data({ message: "This card is no longer active." }, { status: 410 });
    }
    return cardMissing(params.username, "page");
  }
  const form = await readForm(request);
  const { locale } = found;
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const values = {
    name: text("name"),
    email: text("email"),
    phone: text("phone"),
    company: text("company"),
    title: text("title"),
    message: text("message"),
    wantsCard: text("wantsCard"),
  };
  // A form sent back with a mistake keeps the moment it was first shown: its timing is the visitor's.
  const stamp = text("stamp");
  const parsed = leadSchema(locale).safeParse({ ...values, consent: text("consent") });
  if (!parsed.success) {
    return data<FormFailure>({ fieldErrors: fieldErrors(parsed.error), values, stamp }, { status: 400 });
  }
  const outcome = await submitLead({
    card: found.card,
    input: parsed.data,
    stamp,
    honeypot: text(HONEYPOT_FIELD),
    source: sourceOf(text("src")),
    locale,
    ip: request.headers.get(CLIENT_IP_HEADER),
  });
  const first = found.card.firstName;
  if (outcome.kind === "too-many") {
    return data<FormFailure>(
      {
        formError: translate(locale, "lead.tooMany", { name: first }),
        values,
        stamp,
      },
      { status: 429 },
    );
  }
  if (outcome.kind === "expired") {
    return data<FormFailure>(
      {
        formError: translate(locale, "lead.expired"),
        values,
        stamp: formStamp(found.card.id),
      },
      { status: 400 },
    );
  }
  if (outcome.kind === "too-soon") {
    // Filled in sooner than a person types (a phone's autofill): the same form, to be sent once more.
    return data<FormFailure>({ formError: translate(locale, "lead.tooSoon"), values, stamp }, { status: 400 });
  }
  // A bot gets the response a person gets: it learns nothing from it.
  return data<SentResult>({
    sent: true,
    wantsCard: outcome.kind === "stored" ? outcome.cardSent : parsed.data.wantsCard,
  });
}

export default function LeadForm({ loaderData, actionData }: Route.ComponentProps) {
  const { card, owner, consent, source } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const scope = brandScope(card.brand);
  const name = fullName(card);
  const cardHref = withLanguage(
    `/profile/${encodeURIComponent(card.username)}${source === "qr" ? "?src=qr" : ""}`,
    loaderData.named,
  );
  const failed = actionData && !("sent" in actionData) ? (actionData as FormFailure) : undefined;
  const values = failed?.values ?? {};
  const errors = failed?.fieldErrors;
  const t = useT();
  const first = greetingName(card);
  return (
    <div className={`min-h-dvh bg-slate-50 pb-16 dark:bg-slate-950 ${scope.className ?? ""}`} style={scope.style}>
      <header className="mx-auto flex max-w-xl items-center justify-between gap-2 px-4 py-3">
        <Link to={cardHref} className={buttonClasses("ghost", "sm", "whitespace-nowrap")}>
          <Contact aria-hidden className="size-4" />
          {t("lead.ownersCard", { name: first })}
        </Link>
        <ThemeSwitch />
      </header>
      <main className="mx-auto max-w-xl px-4">
        <div className="overflow-hidden rounded-3xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900">
          <div className="brand-gradient flex items-center gap-4 px-6 py-5 text-on-banner">
            <Avatar person={card} photoUrl={card.photoUrl} size="md" className="ring-2 ring-white/70" />
            <div className="min-w-0">
              <p className="font-semibold wrap-anywhere">{name}</p>
              <p className="text-sm wrap-anywhere opacity-90">
                {[card.title, card.company].filter(Boolean).join(" · ")}
              </p>
            </div>
          </div>
          {actionData && "sent" in actionData ? (
            <Sent firstName={first} wantsCard={actionData.wantsCard} card={card} cardHref={cardHref} />
          ) : (
            <div className="p-6 sm:p-8">
              <h1 className="text-2xl font-semibold tracking-tight wrap-anywhere">
                {t("card.shareDetails", { name: first })}
              </h1>
              <p className="mt-2 text-slate-600 dark:text-slate-400">{t("lead.intro", { name: first })}</p>
              {owner ? (
                <Alert tone="info" className="mt-4">
                  {t("lead.ownerNote")}
                </Alert>
              ) : null}
              <Form method="post" className="mt-6 space-y-5" noValidate>
                {failed?.formError ? <Alert tone="error">{failed.formError}</Alert> : null}
                <input type="hidden" name="stamp" value={failed?.stamp ?? loaderData.stamp} />
                <input type="hidden" name="src" value={source} />
                <Honeypot />
                <Field
                  label={t("lead.name")}
                  name="name"
                  id={fieldId("name")}
                  autoComplete="name"
                  required
                  maxLength={LEAD_LIMITS.name}
                  defaultValue={values.name}
                  errors={errors?.name}
                />
                <div className="grid gap-5 sm:grid-cols-2">
                  <Field
                    label={t("lead.email")}
                    name="email"
                    id={fieldId("email")}
                    type="email"
                    dir="ltr"
                    autoComplete="email"
                    maxLength={LEAD_LIMITS.email}
                    defaultValue={values.email}
                    errors={errors?.email}
                  />
                  <Field
                    label={t("lead.phone")}
                    name="phone"
                    id={fieldId("phone")}
                    type="tel"
                    dir="ltr"
                    autoComplete="tel"
                    maxLength={LEAD_LIMITS.phone}
                    defaultValue={values.phone}
                    errors={errors?.phone}
                  />
                </div>
                <p className="-mt-3 text-xs text-slate-500 dark:text-slate-400">{t("lead.emailOrPhone")}</p>
                <div className="grid gap-5 sm:grid-cols-2">
                  <Field
                    label={t("lead.company")}
                    name="company"
                    id={fieldId("company")}
                    autoComplete="organization"
                    maxLength={LEAD_LIMITS.company}
                    defaultValue={values.company}
                    errors={errors?.company}
                  />
                  <Field
                    label={t("lead.jobTitle")}
                    name="title"
                    id={fieldId("title")}
                    autoComplete="organization-title"
                    maxLength={LEAD_LIMITS.title}
                    defaultValue={values.title}
                    errors={errors?.title}
                  />
                </div>
                <TextareaField
                  label={t("lead.note")}
                  name="message"
                  id={fieldId("message")}
                  rows={3}
                  maxLength={LEAD_LIMITS.message}
                  hint={t("lead.noteHint", { name: first })}
                  defaultValue={values.message}
                  errors={errors?.message}
                />
                <Checkbox
                  name="wantsCard"
                  defaultChecked={values.wantsCard === "yes"}
                  errors={errors?.wantsCard}
                  label={t("lead.wantsCard", { name: first })}
                />
                <Checkbox
                  name="consent"
                  errors={errors?.consent}
                  label={
                    <>
                      {consent}{" "}
                      <a href="/privacy" className="font-medium text-brand-ink underline">
                        {t("lead.privacyPolicy")}
                      </a>
                    </>
                  }
                />
                <Button type="submit" size="lg" className="w-full" disabled={busy}>
                  <Send aria-hidden className="size-4 rtl:-scale-x-100" />
                  {busy ? t("lead.sending") : t("lead.submit")}
                </Button>
              </Form>
            </div>
          )}
        </div>
      </main>
    </div>
  );
}

/** A box the visitor ticks themselves: never ticked for them (the consent's one rule). */
function Checkbox({
  name,
  label,
  defaultChecked = false,
  errors,
}: {
  name: string;
  label: React.ReactNode;
  defaultChecked?: boolean;
  errors?: string[];
}) {
  const errorId = errors?.length ? `${name}-error` : undefined;
  return (
    <div id={fieldId(name)} tabIndex={-1} className="outline-none">
      <label className="flex items-start gap-3 text-sm text-slate-700 dark:text-slate-300">
        <input
          type="checkbox"
          name={name}
          value="yes"
          defaultChecked={defaultChecked}
          aria-invalid={errorId ? true : undefined}
          aria-describedby={errorId}
          className="mt-0.5 size-5 shrink-0 accent-[var(--color-brand-solid)]"
        />
        <span>{label}</span>
      </label>
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

function Sent({
  firstName,
  wantsCard,
  card,
  cardHref,
}: {
  firstName: string;
  wantsCard: boolean;
  card: { vcard: string; vcardName: string };
  cardHref: string;
}) {
  const t = useT();
  return (
    <div className="space-y-4 p-6 text-center sm:p-8" role="status">
      <CircleCheck aria-hidden className="mx-auto size-12 text-emerald-600 dark:text-emerald-400" />
      <h1 className="text-2xl font-semibold tracking-tight">{t("lead.thanks")}</h1>
      <p className="text-slate-600 dark:text-slate-400">
        {t("lead.sent", { name: firstName })}
        {wantsCard ? ` ${t("lead.cardOnItsWay", { name: firstName })}` : ""}
      </p>
      <div className="flex flex-col justify-center gap-3 pt-2 sm:flex-row">
        <a href={card.vcard} download={card.vcardName} className={buttonClasses("primary", "md")}>
          {t("lead.saveContact", { name: firstName })}
        </a>
        <Link to={cardHref} className={buttonClasses("secondary", "md")}>
          {t("lead.backToCard")}
        </Link>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <MissingCard text="card.notFoundShort" />;
}
