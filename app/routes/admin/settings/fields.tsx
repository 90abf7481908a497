import { requirePermission } from "~/.server/http/authz";
import { formText, readForm } from "~/.server/http/form-data";
import { respondToSettingsSave } from "~/.server/http/settings-save";
import { getStoredSettings } from "~/.server/platform/site-settings";
import { fieldPoliciesFromForm, policiesFrom } from "~/.server/profiles/visibility";
import { saveSiteSettings } from "~/.server/settings/save-settings";
import { FieldPoliciesPanel } from "~/components/settings/field-policies-panel";
import { SettingsForm } from "~/components/settings/settings-form";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/fields";

export const meta: Route.MetaFunction = () => [{ title: "Card fields · System Settings" }];

export async function loader({ context }: Route.LoaderArgs) {
  requirePermission(context.get(viewerContext), "update:settings:any");
  const stored = await getStoredSettings();
  return { fieldPolicies: policiesFrom(stored?.fieldPolicies) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requirePermission(context.get(viewerContext), "update:settings:any");
  const values = formText(await readForm(request));
  return respondToSettingsSave("fields", values, () =>
    saveSiteSettings({ actor: viewer, values: {}, fieldPolicies: fieldPoliciesFromForm(values) }),
  );
}

export default function CardFieldSettings({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <SettingsForm failure={actionData}>
      <FieldPoliciesPanel
        policies={loaderData.fieldPolicies}
        values={actionData?.values ?? {}}
        errors={actionData?.fieldErrors}
      />
    </SettingsForm>
  );
}
