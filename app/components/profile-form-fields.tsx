import { Eye, Lock } from "lucide-react";
import { ErrorList, Field, fieldId, SelectField, TextareaField } from "~/components/forms";
import type { FieldErrors } from "~/lib/action-result";
import {
  CARD_FIELD_KEYS,
  CARD_FIELDS,
  type CardFieldKey,
  type CardLink,
  LINK_KIND_KEYS,
  LINK_KINDS,
  MAX_LINKS,
  VISIBILITY_HINTS,
  VISIBILITY_LABELS,
  type Visibility,
} from "~/lib/card-fields";

type TextKey = Exclude<CardFieldKey, "links">;

export type ProfileFormValues = Record<
  TextKey | "firstName" | "lastName" | "username" | "companyBrandId" | "manager",
  string
> & {
  links: { kind: string; url: string }[];
  visibility: Partial<Record<CardFieldKey, string>>;
};

/** What a form is filled from: a stored card (its links and visibilities as lists) or the values a failed save sent back. */
type FormSource = { [key: string]: unknown };

const text = (value: unknown) => (value === null || value === undefined ? "" : String(value));

export function profileFormValues(source: FormSource): ProfileFormValues {
  const stored = Array.isArray(source.links) ? (source.links as CardLink[]) : null;
  const links =
    stored ??
    Array.from({ length: MAX_LINKS }, (_, index) => ({
      kind: text(source[`links.${index}.kind`]),
      url: text(source[`links.${index}.url`]),
    })).filter((link) => link.url || link.kind);
  const storedVisibility = (source.fieldVisibility ?? {}) as Partial<Record<CardFieldKey, string>>;
  const visibility = Object.fromEntries(
    CARD_FIELD_KEYS.map((key) => [key, text(source[`visibility.${key}`] ?? storedVisibility[key])]),
  );
  return {
    firstName: text(source.firstName),
    lastName: text(source.lastName),
    username: text(source.username),
    companyBrandId: text(source.companyBrandId),
    manager: text(source.manager),
    ...(Object.fromEntries(
      CARD_FIELD_KEYS.filter((key) => key !== "links").map((key) => [key, text(source[key])]),
    ) as Record<TextKey, string>),
    links,
    visibility,
  };
}

/**
 * Who sees one field: a native select, so it works before JavaScript arrives,
 * named for screen readers as the field's label followed by "visibility".
 */
function VisibilitySelect({
  field,
  value,
  lockedBy,
}: {
  field: CardFieldKey;
  value: string | undefined;
  /** Who decided the field when its owner cannot change it: "your company", or the brand's name. */
  lockedBy: string | undefined;
}) {
  const { label, choices } = CARD_FIELDS[field];
  const current = (choices as readonly string[]).includes(value ?? "") ? value : CARD_FIELDS[field].visibility;
  if (lockedBy) {
    return (
      <span className="inline-flex items-center gap-1 text-xs font-normal text-slate-500 dark:text-slate-400">
        <Lock aria-hidden className="size-3.5" />
        {VISIBILITY_LABELS[current as Visibility]} · set by {lockedBy}
      </span>
    );
  }
  return (
    <span className="inline-flex items-center gap-1 text-xs font-normal text-slate-500 dark:text-slate-400">
      <Eye aria-hidden className="size-3.5" />
      <select
        name={`visibility.${field}`}
        aria-label={`${label} visibility`}
        defaultValue={current}
        title={VISIBILITY_HINTS[current as Visibility]}
        className="rounded-md border-0 bg-transparent py-0 pr-1 pl-0.5 text-xs font-medium text-slate-600 focus:ring-2 focus:ring-brand/30 focus:outline-none dark:text-slate-300"
      >
        {choices.map((choice) => (
          <option key={choice} value={choice}>
            {VISIBILITY_LABELS[choice]}
          </option>
        ))}
      </select>
    </span>
  );
}

/** Rows for links: those stored, then empty ones to add more (without JavaScript too), at most MAX_LINKS. */
function LinkRows({ links, errors }: { links: ProfileFormValues["links"]; errors?: FieldErrors }) {
  const rows = [...links];
  const blanks = Math.max(1, Math.min(2, MAX_LINKS - rows.length));
  for (let index = 0; index < blanks && rows.length < MAX_LINKS; index++) rows.push({ kind: "website", url: "" });
  return (
    <ul className="space-y-2">
      {rows.map((link, index) => {
        const kindName = `links.${index}.kind`;
        const urlName = `links.${index}.url`;
        const message = errors?.[urlName] ?? errors?.[kindName];
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions in the form, named by their index
          <li key={index}>
            <div className="flex gap-2">
              <select
                name={kindName}
                id={fieldId(kindName)}
                aria-label={`Link ${index + 1} kind`}
                defaultValue={link.kind || "website"}
                className="w-36 shrink-0 rounded-lg border border-slate-300 bg-white px-2 py-2 text-sm shadow-sm focus:border-brand focus:ring-2 focus:ring-brand/30 focus:outline-none dark:border-slate-700 dark:bg-slate-900"
              >
                {LINK_KIND_KEYS.map((kind) => (
                  <option key={kind} value={kind}>
                    {LINK_KINDS[kind]}
                  </option>
                ))}
              </select>
              <input
                name={urlName}
                id={fieldId(urlName)}
                type="url"
                inputMode="url"
                aria-label={`Link ${index + 1} address`}
                aria-invalid={message ? true : undefined}
                aria-describedby={message ? `${fieldId(urlName)}-error` : undefined}
                placeholder="https://"
                defaultValue={link.url}
                className="block w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm placeholder:text-slate-400 focus:border-brand focus:ring-2 focus:ring-brand/30 focus:outline-none aria-[invalid=true]:border-red-500 dark:border-slate-700 dark:bg-slate-900"
              />
            </div>
            <ErrorList id={`${fieldId(urlName)}-error`} errors={message} />
          </li>
        );
      })}
    </ul>
  );
}

/** The fields of a card, shared by every profile form, each detail with who may see it. */
export function ProfileFormFields({
  values,
  errors,
  brands,
  bioRows,
  usernameRequired = true,
  usernameHint,
  disabled,
  withManager = false,
  locked = {},
  brandRequired = false,
  brandFixed = false,
}: {
  values: ProfileFormValues;
  /** Fields the company or the card's brand locked, with who did: shown read-only (members' own form only). */
  locked?: Partial<Record<CardFieldKey, string>>;
  /** Administrators name who the person reports to; members do not. */
  withManager?: boolean;
  errors?: FieldErrors;
  brands: { id: number; name: string }[];
  /** A brand administrator's form: the card must be in one of their brands. */
  brandRequired?: boolean;
  /** A member whose brand does not let members move: the brand is shown, not chosen. */
  brandFixed?: boolean;
  bioRows: number;
  usernameRequired?: boolean;
  usernameHint?: string;
  disabled?: boolean;
}) {
  const visibility = (field: CardFieldKey) => (
    <VisibilitySelect field={field} value={values.visibility[field]} lockedBy={locked[field]} />
  );
  const detail = (field: TextKey, props: Partial<Parameters<typeof Field>[0]> = {}) => (
    <Field
      label={CARD_FIELDS[field].label}
      name={field}
      defaultValue={values[field]}
      errors={errors?.[field]}
      aside={visibility(field)}
      {...props}
      readOnly={field in locked}
    />
  );
  return (
    <fieldset disabled={disabled} className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="First name"
          name="firstName"
          required
          autoComplete="off"
          defaultValue={values.firstName}
          errors={errors?.firstName}
        />
        <Field
          label="Last name"
          name="lastName"
          required
          autoComplete="off"
          defaultValue={values.lastName}
          errors={errors?.lastName}
        />
        <Field
          label="Username"
          name="username"
          required={usernameRequired}
          autoCapitalize="none"
          spellCheck={false}
          defaultValue={values.username}
          hint={usernameHint}
          errors={errors?.username}
        />
        {detail("pronouns", { placeholder: "she/her, they/them…" })}
        {detail("email", { type: "email", required: true, autoComplete: "off" })}
        {detail("phone", { type: "tel" })}
        {detail("title")}
        <SelectField
          label="Company / brand"
          name={brandFixed ? undefined : "companyBrandId"}
          id="companyBrandId"
          defaultValue={values.companyBrandId}
          errors={errors?.companyBrandId}
          required={brandRequired}
          disabled={brandFixed || disabled}
          hint={brandFixed ? "Your administrators chose your brand: ask them to move your card." : undefined}
          options={[
            ...(brandRequired ? [] : [{ value: "", label: "No brand" }]),
            ...brands.map((brand) => ({ value: String(brand.id), label: brand.name })),
          ]}
        />
        {brandFixed ? <input type="hidden" name="companyBrandId" value={values.companyBrandId} /> : null}
        {detail("department", { placeholder: "Logistics" })}
        {detail("office", { placeholder: "Lisbon" })}
        {withManager ? (
          <Field
            label="Manager"
            name="manager"
            autoCapitalize="none"
            spellCheck={false}
            placeholder="Username or email"
            hint="Who this person reports to. Leave empty for no one."
            defaultValue={values.manager}
            errors={errors?.manager}
          />
        ) : null}
        {detail("languages", { placeholder: "English, Portuguese" })}
        {detail("linkedinUrl", { type: "url", placeholder: "https://www.linkedin.com/in/…" })}
      </div>
      <TextareaField
        label={CARD_FIELDS.bio.label}
        name="bio"
        rows={bioRows}
        defaultValue={values.bio}
        errors={errors?.bio}
        aside={visibility("bio")}
        readOnly={"bio" in locked}
      />
      <div>
        <div className="mb-1.5 flex items-end gap-1 text-sm font-medium text-slate-700 dark:text-slate-300">
          <span id="links-label">{CARD_FIELDS.links.label}</span>
          <span className="ml-auto">{visibility("links")}</span>
        </div>
        <p className="mb-2 text-xs text-slate-500 dark:text-slate-400">
          Your website, profiles and a booking page: up to {MAX_LINKS}, each starting with https://.
        </p>
        {"links" in locked ? (
          <ul className="space-y-1 text-sm">
            {values.links.map((link) => (
              <li key={link.url} className="wrap-anywhere">
                {link.url}
              </li>
            ))}
          </ul>
        ) : (
          <LinkRows links={values.links} errors={errors} />
        )}
        <ErrorList errors={errors?.links} />
      </div>
    </fieldset>
  );
}
