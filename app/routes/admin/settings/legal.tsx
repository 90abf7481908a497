import { requirePermission, type Viewer } from "~/.server/http/authz";
import { type BodyHandle, formText, MAX_SETTINGS_FORM_BYTES, readForm } from "~/.server/http/form-data";
import { failure } from "~/.server/http/responses";
import { respondToSettingsSave } from "~/.server/http/settings-save";
import { redirectWithToast } from "~/.server/http/toast";
import { eraseLeadsOf } from "~/.server/leads/retention";
import { getStoredSettings } from "~/.server/platform/site-settings";
import { EmailSchema, parseForm } from "~/.server/platform/validation";
import { saveSiteSettings } from "~/.server/settings/save-settings";
import { LegalSettingsSchema } from "~/.server/settings/schemas";
import { EraseLeadsForm, LegalFields } from "~/components/settings/legal-fields";
import { SettingsForm } from "~/components/settings/settings-form";
import { LEAD_RETENTION_DEFAULT_MONTHS } from "~/lib/leads";
import { DEFAULT_SETTINGS } from "~/lib/settings";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/legal";

/** Its form carries the two legal texts: the server allows such a body (server/routes.ts). */
export const handle: BodyHandle = { bodyLimit: "settings" };

export const meta: Route.MetaFunction = () => [{ title: "Legal & privacy · System Settings" }];

export async function loader({ context }: Route.LoaderArgs) {
  requirePermission(context.get(viewerContext), "update:settings:any");
  const stored = await getStoredSettings();
  return {
    values: {
      showStatsToVisitors: (stored?.showStatsToVisitors ?? DEFAULT_SETTINGS.showStatsToVisitors) ? "shown" : "hidden",
      leadRetentionMonths: String(stored?.leadRetentionMonths ?? LEAD_RETENTION_DEFAULT_MONTHS),
      adminsSeeLeads: stored?.adminsSeeLeads ? "on" : "",
      termsOfService: stored?.termsOfService ?? "",
      privacyPolicy: stored?.privacyPolicy ?? "",
    },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requirePermission(context.get(viewerContext), "update:settings:any");
  const form = await readForm(request, MAX_SETTINGS_FORM_BYTES);
  if (form.get("intent") === "erase-leads") return eraseLeads(viewer, form);
  const values = formText(form);
  return respondToSettingsSave("legal", values, () =>
    saveSiteSettings({ actor: viewer, values: parseForm(LegalSettingsSchema, values) }),
  );
}

/** Erases what visitors with one address shared, from every card (the right to be forgotten). */
async function eraseLeads(viewer: Viewer, form: FormData) {
  const typed = String(form.get("eraseEmail") ?? "");
  const parsed = EmailSchema.safeParse(typed);
  if (!parsed.success) {
    return failure(400, {
      fieldErrors: { eraseEmail: [parsed.error.issues[0]?.message ?? "Enter an email address"] },
      values: { eraseEmail: typed },
    });
  }
  const erased = await eraseLeadsOf(viewer, parsed.data);
  return redirectWithToast("/admin/settings/legal", {
    text:
      erased === 0
        ? "No card held details with that address. The erasure is on the record."
        : `${erased === 1 ? "1 lead" : `${erased} leads`} with that address ${erased === 1 ? "was" : "were"} erased from every card.`,
  });
}

export default function LegalSettings({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <SettingsForm failure={actionData}>
        <LegalFields values={{ ...loaderData.values, ...actionData?.values }} errors={actionData?.fieldErrors} />
      </SettingsForm>
      <EraseLeadsForm />
    </>
  );
}
