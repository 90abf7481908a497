import { ArrowLeft, Info } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import { activeBrandOptions } from "~/.server/brands/list-brands";
import { requireAction } from "~/.server/http/authz";
import { type BodyHandle, formText, imageChange, readUploadForm } from "~/.server/http/form-data";
import { failure, failureFrom } from "~/.server/http/responses";
import { redirectWithToast } from "~/.server/http/toast";
import { createProfile } from "~/.server/profiles/create-profile";
import { parseProfileForm } from "~/.server/profiles/field-checks";
import { profileCreatedMessage } from "~/.server/profiles/messages";
import { CreateProfileSchema } from "~/.server/profiles/schemas";
import { FormAlert } from "~/components/form-alert";
import { ImagePicker } from "~/components/image-picker";
import { PageHeader } from "~/components/page-header";
import { ProfileFormFields, profileFormValues } from "~/components/profile-form-fields";
import { Button, ButtonLink } from "~/components/ui/button";
import { IMAGE_TOO_LARGE } from "~/lib/limits";
import { administers } from "~/lib/permissions";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/profiles-create";

/** It takes a form with an image: the server allows such a body (server/routes.ts). */
export const handle: BodyHandle = { bodyLimit: "upload" };

export const meta: Route.MetaFunction = () => [{ title: "Create Profile" }];

export async function loader({ context }: Route.LoaderArgs) {
  const viewer = requireAction(context.get(viewerContext), "create:profile");
  const brands = await activeBrandOptions();
  // A brand administrator makes cards in their brands only, and always in one of them.
  const siteWide = viewer.role === "admin";
  return { brands: brands.filter((brand) => administers(viewer, brand.id)), brandRequired: !siteWide };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requireAction(context.get(viewerContext), "create:profile");
  const { form } = await readUploadForm(request);
  if (!form) return failure(413, { fieldErrors: { photo: [IMAGE_TOO_LARGE] } });
  const values = formText(form);
  try {
    const fields = await parseProfileForm(CreateProfileSchema, values, null);
    const created = await createProfile({ actor: viewer, fields, photo: await imageChange(form, "photo") });
    // The address goes in the toast, never in the URL (which access logs keep).
    return redirectWithToast("/admin/profiles", { text: profileCreatedMessage(created.profile, created.photoSkipped) });
  } catch (error) {
    return failureFrom(error, { values, unexpected: "Failed to create profile. Please try again." });
  }
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
        <FormAlert failure={actionData} nothingDone="Nothing was created." />
        <ImagePicker name="photo" label="Profile photo" currentUrl={null} errors={actionData?.fieldErrors?.photo} />
        <ProfileFormFields
          values={profileFormValues(actionData?.values ?? {})}
          errors={actionData?.fieldErrors}
          brands={loaderData.brands}
          brandRequired={loaderData.brandRequired}
          bioRows={4}
          usernameRequired={false}
          usernameHint="Optional. Left blank, it becomes first.last."
          disabled={creating}
          withManager
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
