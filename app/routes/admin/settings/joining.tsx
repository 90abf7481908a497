import { z } from "zod";
import {
  accountsOutsideRule,
  deactivateAccountsOutsideRule,
  defaultJoinDomains,
  getJoinRule,
} from "~/.server/accounts/join-rule";
import { requirePermission, type Viewer } from "~/.server/http/authz";
import { type BodyHandle, formText, MAX_SETTINGS_FORM_BYTES, readForm } from "~/.server/http/form-data";
import { failureFrom } from "~/.server/http/responses";
import { respondToSettingsSave } from "~/.server/http/settings-save";
import { redirectWithToast } from "~/.server/http/toast";
import { getStoredSettings } from "~/.server/platform/site-settings";
import { parseForm } from "~/.server/platform/validation";
import { saveSiteSettings } from "~/.server/settings/save-settings";
import { JoinSettingsSchema } from "~/.server/settings/schemas";
import { JoinRuleFields } from "~/components/settings/join-rule-fields";
import { OutsideAccounts, OutsideAccountsForm } from "~/components/settings/outside-accounts";
import { SettingsForm } from "~/components/settings/settings-form";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/joining";

/** The people a stricter rule leaves outside, as the deactivation form sends them. */
const DeactivateOutsideSchema = z.object({
  // One field for them all (a form has at most a few thousand fields): the ids, comma-separated.
  profileIds: z
    .string({ message: "Choose accounts from the list" })
    .transform((value) => value.split(",").filter(Boolean))
    .pipe(z.array(z.uuid("Choose accounts from the list")).min(1, "Choose accounts from the list").max(100_000)),
});

/** How many of the people outside the rule the page lists by name. */
const OUTSIDE_SHOWN = 50;

/** Its deactivation form carries the ids of everyone outside the rule: the server allows such a body (server/routes.ts). */
export const handle: BodyHandle = { bodyLimit: "settings" };

export const meta: Route.MetaFunction = () => [{ title: "Who can join · System Settings" }];

export async function loader({ context }: Route.LoaderArgs) {
  requirePermission(context.get(viewerContext), "update:settings:any");
  const stored = await getStoredSettings();
  const outside = await accountsOutsideRule(await getJoinRule());
  return {
    values: {
      joinRule: stored?.joinRule ?? "domains",
      // A new installation starts with the administrators' domains.
      joinDomains: stored?.joinDomains ?? defaultJoinDomains().join("\n"),
    },
    outside: {
      total: outside.length,
      ids: outside.map((account) => account.profileId),
      shown: outside
        .slice(0, OUTSIDE_SHOWN)
        .map((account) => ({ ...account, joinedAt: account.joinedAt.toISOString() })),
    },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requirePermission(context.get(viewerContext), "update:settings:any");
  const form = await readForm(request, MAX_SETTINGS_FORM_BYTES);
  if (form.get("intent") === "deactivate-outside") return deactivateOutside(viewer, form);
  const values = formText(form);
  return respondToSettingsSave("joining", values, () =>
    saveSiteSettings({ actor: viewer, values: parseForm(JoinSettingsSchema, values) }),
  );
}

/** Deactivates the people the saved rule leaves outside, as listed on the page. */
async function deactivateOutside(viewer: Viewer, form: FormData) {
  requirePermission(viewer, "deactivate:profile:any");
  try {
    const { profileIds } = DeactivateOutsideSchema.parse({ profileIds: form.get("profileIds") ?? undefined });
    const count = await deactivateAccountsOutsideRule({ actor: viewer, profileIds });
    return redirectWithToast("/admin/settings/joining", {
      text:
        count === 1
          ? "1 account was deactivated: they are signed out and their card is hidden."
          : `${count} accounts were deactivated: they are signed out and their cards are hidden.`,
    });
  } catch (error) {
    return failureFrom(error, { unexpected: "Failed to deactivate the accounts. Please try again." });
  }
}

export default function JoinSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { outside } = loaderData;
  return (
    <>
      <SettingsForm failure={actionData}>
        <JoinRuleFields values={{ ...loaderData.values, ...actionData?.values }} errors={actionData?.fieldErrors} />
        <OutsideAccounts outside={outside} />
      </SettingsForm>
      <OutsideAccountsForm ids={outside.ids} />
    </>
  );
}
