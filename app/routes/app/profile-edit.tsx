import { eq } from "drizzle-orm";
import { ArrowLeft } from "lucide-react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { activeBrandOptions } from "~/.server/brands";
import { db } from "~/.server/db/client";
import { profiles } from "~/.server/db/schema";
import { formText, readUploadForm } from "~/.server/form-data";
import { deleteImageIfUnused, ImageError, storeProfilePhoto } from "~/.server/images";
import { checkProfileFields, uniqueViolationErrors } from "~/.server/profile-update";
import { publish } from "~/.server/realtime";
import { ImagePicker } from "~/components/image-picker";
import { PageHeader } from "~/components/page-header";
import { ProfileFormFields, profileFormValues } from "~/components/profile-form-fields";
import { Alert } from "~/components/ui/alert";
import { Button, ButtonLink } from "~/components/ui/button";
import { mediaUrl } from "~/lib/media";
import { ProfileFieldsSchema } from "~/lib/profile-schema";
import { type FieldErrors, fieldErrors, IMAGE_TOO_LARGE } from "~/lib/validation";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/profile-edit";

type ActionData = { errors?: FieldErrors; formError?: string; values?: Record<string, string> };

export const meta: Route.MetaFunction = () => [{ title: "Edit Profile" }];

export async function loader({ context }: Route.LoaderArgs) {
  const viewer = context.get(viewerContext);
  if (!viewer.profile) throw redirect("/");
  // Scoped by owner: a member only ever reads their own card here.
  const [profile] = await db
    .select({
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      username: profiles.username,
      email: profiles.email,
      title: profiles.title,
      phone: profiles.phone,
      bio: profiles.bio,
      linkedinUrl: profiles.linkedinUrl,
      companyBrandId: profiles.companyBrandId,
      profilePhoto: profiles.profilePhoto,
    })
    .from(profiles)
    .where(eq(profiles.userId, viewer.user.id));
  if (!profile) throw redirect("/");
  return {
    profile: { ...profile, photoUrl: mediaUrl(profile.profilePhoto) },
    brands: await activeBrandOptions(profile.companyBrandId),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = context.get(viewerContext);
  const [current] = await db
    .select({ id: profiles.id, profilePhoto: profiles.profilePhoto, companyBrandId: profiles.companyBrandId })
    .from(profiles)
    .where(eq(profiles.userId, viewer.user.id));
  if (!current) throw redirect("/");

  const { form } = await readUploadForm(request);
  if (!form) return data<ActionData>({ errors: { photo: [IMAGE_TOO_LARGE] } }, 413);
  const values = formText(form);
  const parsed = ProfileFieldsSchema.safeParse(values);
  if (!parsed.success) return data<ActionData>({ errors: fieldErrors(parsed.error), values }, 400);
  const errors = await checkProfileFields(parsed.data, current);
  if (Object.keys(errors).length) return data<ActionData>({ errors, values }, 400);

  const photo = form.get("photo");
  let photoKey = form.get("photoRemove") === "1" ? null : current.profilePhoto;
  if (photo instanceof File && photo.size > 0) {
    try {
      photoKey = await storeProfilePhoto(new Uint8Array(await photo.arrayBuffer()));
    } catch (error) {
      if (error instanceof ImageError) return data<ActionData>({ errors: { photo: [error.message] }, values }, 400);
      throw error;
    }
  }

  try {
    // Filtered by the owner, whatever the form says (spec §7 "Edit own profile").
    await db
      .update(profiles)
      .set({ ...parsed.data, profilePhoto: photoKey })
      .where(eq(profiles.userId, viewer.user.id));
  } catch (error) {
    if (photoKey !== current.profilePhoto) await deleteImageIfUnused(photoKey);
    const uniqueErrors = uniqueViolationErrors(error);
    if (uniqueErrors) return data<ActionData>({ errors: uniqueErrors, values }, 400);
    console.error("[profile] update failed:", error);
    return data<ActionData>({ formError: "Failed to update profile. Please try again.", values }, 500);
  }
  if (photoKey !== current.profilePhoto) await deleteImageIfUnused(current.profilePhoto);
  await publish({ kind: "profile", id: current.id });
  throw redirect(`/profile/${encodeURIComponent(parsed.data.username)}`);
}

export default function EditProfile({ loaderData, actionData }: Route.ComponentProps) {
  const { profile, brands } = loaderData;
  const navigation = useNavigation();
  const saving = navigation.state === "submitting";
  const errors = actionData?.errors;
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
      <Form
        method="post"
        encType="multipart/form-data"
        noValidate
        className="space-y-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900"
      >
        {actionData?.formError ? <Alert tone="error">{actionData.formError}</Alert> : null}
        {errors && !actionData?.formError ? (
          <Alert tone="error">Some fields need your attention. Nothing was saved.</Alert>
        ) : null}
        <ImagePicker name="photo" label="Profile photo" currentUrl={profile.photoUrl} errors={errors?.photo} />
        <ProfileFormFields
          values={actionData?.values ? profileFormValues(actionData.values) : profileFormValues(profile)}
          errors={errors}
          brands={brands}
          bioRows={4}
          usernameHint="Your card's address: /profile/your-username"
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
