import { Field, SelectField, TextareaField } from "~/components/forms";
import type { FieldErrors } from "~/lib/action-result";

export type ProfileFormValues = {
  firstName: string;
  lastName: string;
  username: string;
  email: string;
  title: string;
  phone: string;
  bio: string;
  linkedinUrl: string;
  companyBrandId: string;
};

export function profileFormValues(
  profile: {
    [K in keyof ProfileFormValues]?: string | number | null;
  },
): ProfileFormValues {
  const text = (value: string | number | null | undefined) =>
    value === null || value === undefined ? "" : String(value);
  return {
    firstName: text(profile.firstName),
    lastName: text(profile.lastName),
    username: text(profile.username),
    email: text(profile.email),
    title: text(profile.title),
    phone: text(profile.phone),
    bio: text(profile.bio),
    linkedinUrl: text(profile.linkedinUrl),
    companyBrandId: text(profile.companyBrandId),
  };
}

/** The fields of a card, shared by every profile form. */
export function ProfileFormFields({
  values,
  errors,
  brands,
  bioRows,
  usernameRequired = true,
  usernameHint,
  disabled,
}: {
  values: ProfileFormValues;
  errors?: FieldErrors;
  brands: { id: number; name: string }[];
  bioRows: number;
  usernameRequired?: boolean;
  usernameHint?: string;
  disabled?: boolean;
}) {
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
        <Field
          label="Email"
          name="email"
          type="email"
          required
          autoComplete="off"
          defaultValue={values.email}
          errors={errors?.email}
        />
        <Field label="Job title" name="title" defaultValue={values.title} errors={errors?.title} />
        <Field label="Phone" name="phone" type="tel" defaultValue={values.phone} errors={errors?.phone} />
        <SelectField
          label="Company / brand"
          name="companyBrandId"
          defaultValue={values.companyBrandId}
          errors={errors?.companyBrandId}
          options={[
            { value: "", label: "No brand" },
            ...brands.map((brand) => ({ value: String(brand.id), label: brand.name })),
          ]}
        />
        <Field
          label="LinkedIn URL"
          name="linkedinUrl"
          type="url"
          placeholder="https://www.linkedin.com/in/…"
          defaultValue={values.linkedinUrl}
          errors={errors?.linkedinUrl}
        />
      </div>
      <TextareaField label="Bio" name="bio" rows={bioRows} defaultValue={values.bio} errors={errors?.bio} />
    </fieldset>
  );
}
