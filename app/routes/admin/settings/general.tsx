import { requirePermission } from "~/.server/http/authz";
import { formText, readForm } from "~/.server/http/form-data";
import { respondToSettingsSave } from "~/.server/http/settings-save";
import { getStoredSettings } from "~/.server/platform/site-settings";
import { parseForm } from "~/.server/platform/validation";
import { saveSiteSettings } from "~/.server/settings/save-settings";
import { GeneralSettingsSchema } from "~/.server/settings/schemas";
import { GeneralFields } from "~/components/settings/general-fields";
import { SettingsForm } from "~/components/settings/settings-form";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/general";

export const meta: Route.MetaFunction = () => [{ title: "General · System Settings" }];

export async function loader({ context }: Route.LoaderArgs) {
  requirePermission(context.get(viewerContext), "update:settings:any");
  const stored = await getStoredSettings();
  return {
    values: {
      companyName: stored?.companyName ?? "",
      website: stored?.website ?? "",
      email: stored?.email ?? "",
      phone: stored?.phone ?? "",
      description: stored?.description ?? "",
      address: stored?.address ?? "",
      deactivatedCards: stored?.deactivatedCards ?? "gone",
      defaultLocale: stored?.defaultLocale ?? "",
    },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requirePermission(context.get(viewerContext), "update:settings:any");
  const values = formText(await readForm(request));
  return respondToSettingsSave("general", values, () =>
    saveSiteSettings({ actor: viewer, values: parseForm(GeneralSettingsSchema, values) }),
  );
}

export default function GeneralSettings({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <SettingsForm failure={actionData}>
      {/* After a failed save the form shows what was typed, with or without JavaScript. */}
      <GeneralFields values={{ ...loaderData.values, ...actionData?.values }} errors={actionData?.fieldErrors} />
    </SettingsForm>
  );
}
