import { requirePermission } from "~/.server/http/authz";
import {
  type BodyHandle,
  formText,
  imageChange,
  MAX_SETTINGS_FORM_BYTES,
  readUploadForm,
} from "~/.server/http/form-data";
import { failure } from "~/.server/http/responses";
import { respondToSettingsSave } from "~/.server/http/settings-save";
import { ValidationError } from "~/.server/platform/errors";
import { getStoredSettings, storedImageKey } from "~/.server/platform/site-settings";
import { fieldErrors } from "~/.server/platform/validation";
import {
  SITE_IMAGE_FIELDS,
  type SiteImageChanges,
  saveSiteSettings,
  siteImageErrors,
} from "~/.server/settings/save-settings";
import { BrandingSettingsSchema } from "~/.server/settings/schemas";
import { BrandingFields, type SiteImageUrls } from "~/components/settings/branding-fields";
import { SettingsForm } from "~/components/settings/settings-form";
import type { FieldErrors } from "~/lib/action-result";
import { mediaUrl } from "~/lib/media";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/branding";

/** Its form carries the site's four images: the server allows such a body (server/routes.ts). */
export const handle: BodyHandle = { bodyLimit: "settings" };

export const meta: Route.MetaFunction = () => [{ title: "Branding · System Settings" }];

export async function loader({ context }: Route.LoaderArgs) {
  requirePermission(context.get(viewerContext), "update:settings:any");
  const stored = await getStoredSettings();
  return {
    values: {
      primaryColor: stored?.primaryColor ?? "",
      secondaryColor: stored?.secondaryColor ?? "",
      accentColor: stored?.accentColor ?? "",
      fontFamily: stored?.fontFamily ?? "",
    },
    images: Object.fromEntries(
      SITE_IMAGE_FIELDS.map((field) => [field, mediaUrl(storedImageKey(stored?.[field]))]),
    ) as SiteImageUrls,
    // Pickers start afresh after each save, so a file once sent is not sent again.
    savedAt: stored?.updatedAt.toISOString() ?? "never",
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requirePermission(context.get(viewerContext), "update:settings:any");
  const { form } = await readUploadForm(request, MAX_SETTINGS_FORM_BYTES);
  if (!form) return failure(413, { formError: "Each image can be up to 2MB. Choose smaller files." });
  const values = formText(form);
  return respondToSettingsSave("branding", values, async () => {
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
    const parsed = BrandingSettingsSchema.safeParse(values);
    if (!parsed.success) Object.assign(errors, fieldErrors(parsed.error));
    if (!parsed.success || Object.keys(errors).length) throw new ValidationError(errors);
    await saveSiteSettings({ actor: viewer, values: parsed.data, images });
  });
}

export default function BrandingSettings({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <SettingsForm failure={actionData}>
      <BrandingFields
        values={{ ...loaderData.values, ...actionData?.values }}
        images={loaderData.images}
        savedAt={loaderData.savedAt}
        errors={actionData?.fieldErrors}
      />
    </SettingsForm>
  );
}
