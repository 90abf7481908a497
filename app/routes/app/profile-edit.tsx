import { ArrowLeft, ShieldCheck } from "lucide-react";
import { useState } from "react";
import { Form, Link, redirect, useNavigation } from "react-router";
import { lastAdminChange } from "~/.server/audit/list";
import { activeBrandOptions } from "~/.server/brands/list-brands";
import { type BodyHandle, formText, imageChange, readUploadForm } from "~/.server/http/form-data";
import { failure, failureFrom } from "~/.server/http/responses";
import { redirectWithToast } from "~/.server/http/toast";
import { EditVersionSchema } from "~/.server/platform/edit-version";
import { NotFoundError } from "~/.server/platform/errors";
import { parseForm } from "~/.server/platform/validation";
import { fieldLocks } from "~/.server/profiles/brand-template";
import { parseProfileForm } from "~/.server/profiles/field-checks";
import { getEditableProfile } from "~/.server/profiles/get-editable-profile";
import { profileSavedMessage } from "~/.server/profiles/messages";
import { cardUrl } from "~/.server/profiles/qr";
import { ProfileFieldsSchema } from "~/.server/profiles/schemas";
import { brandChosenByMember, updateProfile } from "~/.server/profiles/update-profile";
import { FormAlert } from "~/components/form-alert";
import { ImagePicker } from "~/components/image-picker";
import { PageHeader } from "~/components/page-header";
import { ProfileFormFields, profileFormValues } from "~/components/profile-form-fields";
import { Button, ButtonLink } from "~/components/ui/button";
import { IMAGE_TOO_LARGE } from "~/lib/limits";
import { mediaUrl } from "~/lib/media";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/profile-edit";

/** It takes a form with an image: the server allows such a body (server/routes.ts). */
export const handle: BodyHandle = { bodyLimit: "upload" };

export const meta: Route.MetaFunction = () => [{ title: "Edit Profile" }];

const LAST_CHANGE_DAY = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});

export async function loader({ context }: Route.LoaderArgs) {
  const viewer = context.get(viewerContext);
  if (!viewer.profile) throw redirect("/");
  try {
    const profile = await getEditableProfile({ actor: viewer, profileId: viewer.profile.id });
    const { updatedAt, ...fields } = profile;
    return {
      profile: { ...fields, photoUrl: mediaUrl(profile.profilePhoto), version: updatedAt.toISOString() },
      brands: await activeBrandOptions(profile.companyBrandId),
      // A card stays in the brand it was given, unless its brand lets its members move.
      brandFixed: !(await brandChosenByMember(viewer, profile.companyBrandId)),
      // Fields the company or the card's brand locked: shown, not changeable here.
      locked: await fieldLocks(profile.companyBrandId),
      address: cardUrl(profile.username),
      // When an administrator (not the card's owner) last changed the card, as a day in UTC.
      adminChangedOn: await lastAdminChange(profile.id, viewer.user.id).then((date) =>
        date ? LAST_CHANGE_DAY.format(date) : null,
      ),
    };
  } catch (error) {
    if (error instanceof NotFoundError) throw redirect("/");
    throw error;
  }
}

/** The member's own card: the same `updateProfile` the dashboard uses, scoped to what they may change. */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = context.get(viewerContext);
  if (!viewer.profile) throw redirect("/");
  const { form } = await readUploadForm(request);
  if (!form) return failure(413, { fieldErrors: { photo: [IMAGE_TOO_LARGE] } });
  const values = formText(form);
  try {
    const fields = await parseProfileForm(ProfileFieldsSchema, values, viewer.profile.id);
    const saved = await updateProfile({
      actor: viewer,
      profileId: viewer.profile.id,
      fields,
      photo: await imageChange(form, "photo"),
      version: parseForm(EditVersionSchema, values).version,
    });
    return redirectWithToast(`/profile/${encodeURIComponent(saved.profile.username)}`, {
      text: profileSavedMessage(saved.profile, saved.photoSkipped, saved.emailChange),
    });
  } catch (error) {
    return failureFrom(error, { values, unexpected: "Failed to update profile. Please try again." });
  }
}

export default function EditProfile({ loaderData, actionData }: Route.ComponentProps) {
  const { profile, brands } = loaderData;
  // The version the page was opened on, kept when a colleague's change refreshes the page: saving over
  // their change is refused with a message instead of undoing it.
  const [version] = useState(profile.version);
  const navigation = useNavigation();
  const saving = navigation.state === "submitting";
  const errors = actionData?.fieldErrors;
  const cardHref = `/profile/${encodeURIComponent(profile.username)}`;
  return (
    <div className="max-w-3xl">
      <Link
        to={cardHref}
        className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-brand-ink hover:underline"
      >
        <ArrowLeft aria-hidden className="size-4" />
        Back to Profile
      </Link>
      <PageHeader title="Edit Profile" description="What you save here is what people see on your card." />
      {loaderData.adminChangedOn ? (
        <p
          className="-mt-4 mb-6 inline-flex items-center gap-2 rounded-lg bg-slate-100 px-3 py-2 text-sm text-slate-700 dark:bg-slate-800 dark:text-slate-300"
          data-testid="admin-changed"
        >
          <ShieldCheck aria-hidden className="size-4 shrink-0" />
          Last changed by an administrator on {loaderData.adminChangedOn}
        </p>
      ) : null}
      <Form
        method="post"
        encType="multipart/form-data"
        noValidate
        className="space-y-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900"
      >
        <input type="hidden" name="version" value={version} />
        <FormAlert failure={actionData} nothingDone="Nothing was saved." />
        <ImagePicker name="photo" label="Profile photo" currentUrl={profile.photoUrl} errors={errors?.photo} />
        <ProfileFormFields
          values={actionData?.values ? profileFormValues(actionData.values) : profileFormValues(profile)}
          locked={loaderData.locked}
          errors={errors}
          brands={brands}
          brandFixed={loaderData.brandFixed}
          bioRows={4}
          usernameHint={`Your card's address: ${loaderData.address}`}
        />
        <div className="flex flex-col-reverse gap-3 border-t border-slate-200 pt-6 sm:flex-row sm:justify-end dark:border-slate-800">
          <ButtonLink to={cardHref} variant="secondary">
            Cancel
          </ButtonLink>
          <Button type="submit" disabled={saving}>
            {saving ? "Saving..." : "Save Changes"}
          </Button>
        </div>
      </Form>
    </div>
  );
}
