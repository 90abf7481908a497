import { LANGUAGE_NAMES, LOCALES } from "~/lib/i18n/locales";
import { SelectField } from "./forms";

/** A choice of the languages Namecard speaks, each by its own name, or none (`emptyLabel`: what none means). */
export function LanguageField({
  label,
  name,
  hint,
  emptyLabel,
  defaultValue,
  errors,
}: {
  label: string;
  name: string;
  hint: string;
  emptyLabel: string;
  defaultValue: string;
  errors?: string[];
}) {
  return (
    <SelectField
      label={label}
      name={name}
      hint={hint}
      defaultValue={defaultValue}
      errors={errors}
      options={[
        { value: "", label: emptyLabel },
        // Each language by its own name, said as a reader of it says it.
        ...LOCALES.map((locale) => ({ value: locale, label: LANGUAGE_NAMES[locale], lang: locale })),
      ]}
    />
  );
}
