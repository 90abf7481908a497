import { ArrowLeft, Info } from "lucide-react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { createUnclaimedProfile } from "~/.server/admin-profile-actions";
import { activeBrandOptions } from "~/.server/brands";
import { readUploadForm } from "~/.server/form-data";
import { ImagePicker } from "~/components/image-picker";
import { PageHeader } from "~/components/page-header";
import { ProfileFormFields, profileFormValues } from "~/components/profile-form-fields";
import { Alert } from "~/components/ui/alert";
import { Button, ButtonLink } from "~/components/ui/button";
import { type FieldErrors, IMAGE_TOO_LARGE } from "~/lib/validation";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/profiles-create";

type ActionData = { errors?: FieldErrors; values?: Record<string, string>; formError?: string };

export const meta: Route.MetaFunction = () => [{ title: "Create Profile" }];

export async function loader() {
  return { brands: await activeBrandOptions() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = context.get(viewerContext);
  const { form, tooLarge } = await readUploadForm(request);
  if (tooLarge || !form) {
    return data<ActionData>({ errors: { photo: [IMAGE_TOO_LARGE] } }, 413);
  }
  const result = await createUnclaimedProfile(viewer, form);
  if (!result.ok) return data<ActionData>({ errors: result.errors, values: result.values }, 400);
  const created = new URLSearchParams({
    created: `${result.profile.firstName} ${result.profile.lastName}`,
    email: result.profile.email,
  });
  throw redirect(`/admin/profiles?${created}`);
}

export default function CreateProfile({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const creating = navigation.state === "submitting";
  return (
    <div className="max-w-3xl">
      <Link
        to="/admin/profiles"
        className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-brand-ink hover:underline"
      >
        <ArrowLeft aria-hidden className="size-4" />
        Back to Profiles
      </Link>
      <PageHeader title="Create Profile" description="Prepare a card for someone who has not joined yet." />
      <div className="mb-6 flex gap-3 rounded-2xl border border-blue-100 bg-blue-50 p-4 text-sm text-blue-900 dark:border-blue-900/50 dark:bg-blue-950/40 dark:text-blue-100">
        <Info aria-hidden className="mt-0.5 size-5 shrink-0" />
        <p>
          This creates an <strong>unclaimed profile</strong>. No password is needed: the person claims it later by
          signing up with this email address and confirming it. Until then the card is public and can be shared like any
          other.
        </p>
      </div>
      <Form
        method="post"
        encType="multipart/form-data"
        noValidate
        className="space-y-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900"
      >
        {actionData?.errors ? <Alert tone="error">Some fields need your attention. Nothing was created.</Alert> : null}
        <ImagePicker name="photo" label="Profile photo" currentUrl={null} errors={actionData?.errors?.photo} />
        <ProfileFormFields
          values={profileFormValues(actionData?.values ?? {})}
          errors={actionData?.errors}
          brands={loaderData.brands}
          bioRows={4}
          usernameRequired={false}
          usernameHint="Optional. Left blank, it becomes first.last."
          disabled={creating}
        />
        <div className="flex flex-col-reverse gap-3 border-t border-slate-200 pt-6 sm:flex-row sm:justify-end dark:border-slate-800">
          <ButtonLink to="/admin/profiles" variant="secondary">
            Cancel
          </ButtonLink>
          <Button type="submit" disabled={creating}>
            {creating ? "Creating..." : "Create Profile"}
          </Button>
        </div>
      </Form>
    </div>
  );
}
