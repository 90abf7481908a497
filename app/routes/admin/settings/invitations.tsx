import { requirePermission } from "~/.server/http/authz";
import { formText, readForm } from "~/.server/http/form-data";
import { respondToSettingsSave } from "~/.server/http/settings-save";
import { REMINDER_DEFAULTS } from "~/.server/invitations/invitations";
import { getStoredSettings } from "~/.server/platform/site-settings";
import { parseForm } from "~/.server/platform/validation";
import { saveSiteSettings } from "~/.server/settings/save-settings";
import { InvitationSettingsSchema } from "~/.server/settings/schemas";
import { ReminderFields } from "~/components/settings/reminder-fields";
import { SettingsForm } from "~/components/settings/settings-form";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/invitations";

export const meta: Route.MetaFunction = () => [{ title: "Invitations · System Settings" }];

export async function loader({ context }: Route.LoaderArgs) {
  requirePermission(context.get(viewerContext), "update:settings:any");
  const stored = await getStoredSettings();
  return {
    values: {
      autoReminders: stored?.autoReminders ? "on" : "",
      reminderAfterDays: String(stored?.reminderAfterDays ?? REMINDER_DEFAULTS.after),
      reminderMaxCount: String(stored?.reminderMaxCount ?? REMINDER_DEFAULTS.max),
    },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requirePermission(context.get(viewerContext), "update:settings:any");
  const values = formText(await readForm(request));
  return respondToSettingsSave("invitations", values, () =>
    saveSiteSettings({ actor: viewer, values: parseForm(InvitationSettingsSchema, values) }),
  );
}

export default function InvitationSettings({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <SettingsForm failure={actionData}>
      <ReminderFields values={{ ...loaderData.values, ...actionData?.values }} errors={actionData?.fieldErrors} />
    </SettingsForm>
  );
}
