import type { FieldErrors } from "~/lib/action-result";
import { DEFAULT_SETTINGS } from "~/lib/settings";
import { ChoiceField, Field, TextareaField } from "../forms";
import { LanguageField } from "../language-field";

export type GeneralValues = {
  companyName: string;
  website: string;
  email: string;
  phone: string;
  description: string;
  address: string;
  deactivatedCards: string;
  defaultLocale: string;
};

/** The company's details, and what a deactivated card's address shows. */
export function GeneralFields({ values, errors }: { values: GeneralValues; errors?: FieldErrors }) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Company name"
          name="companyName"
          defaultValue={values.companyName}
          placeholder={DEFAULT_SETTINGS.companyName}
          errors={errors?.companyName}
        />
        <Field
          label="Website"
          name="website"
          type="url"
          defaultValue={values.website}
          placeholder="https://example.com"
          errors={errors?.website}
        />
        <Field
          label="Email"
          name="email"
          type="email"
          defaultValue={values.email}
          placeholder="hello@example.com"
          errors={errors?.email}
        />
        <Field label="Phone" name="phone" type="tel" defaultValue={values.phone} errors={errors?.phone} />
      </div>
      <TextareaField
        label="Description"
        name="description"
        rows={3}
        defaultValue={values.description}
        placeholder={DEFAULT_SETTINGS.description}
        errors={errors?.description}
      />
      <TextareaField label="Address" name="address" rows={3} defaultValue={values.address} errors={errors?.address} />
      <p className="text-sm text-slate-500 dark:text-slate-400">Empty fields use the default shown in grey.</p>
      <div className="border-t border-slate-200 pt-5 dark:border-slate-800">
        <LanguageField
          label="Language of the cards"
          name="defaultLocale"
          hint="A card, its QR page and its lead form speak the visitor's language when it is one of these. For anyone else they use this one, unless the card's brand has its own."
          emptyLabel="English (the default)"
          defaultValue={values.defaultLocale}
          errors={errors?.defaultLocale}
        />
      </div>
      <div className="border-t border-slate-200 pt-5 dark:border-slate-800">
        <DeactivatedCardsField defaultValue={values.deactivatedCards} errors={errors?.deactivatedCards} />
      </div>
    </>
  );
}

/** What a deactivated card's public addresses answer (docs/decisions/019-deactivation-and-audit-log.md). */
function DeactivatedCardsField({ defaultValue, errors }: { defaultValue: string; errors?: string[] }) {
  return (
    <ChoiceField
      name="deactivatedCards"
      legend="What a deactivated card's address shows"
      hint="For its card page, QR page, contact file and images. A card whose brand has no website always gets the page (410 Gone)."
      options={[
        { value: "gone", label: "A page saying the card is no longer active" },
        { value: "brand-website", label: "A redirect to the card's brand website" },
      ]}
      defaultValue={defaultValue}
      errors={errors}
    />
  );
}
