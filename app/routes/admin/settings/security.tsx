import { requirePermission } from "~/.server/http/authz";
import { formText, readForm } from "~/.server/http/form-data";
import { respondToSettingsSave } from "~/.server/http/settings-save";
import { env } from "~/.server/platform/env";
import { getStoredSettings } from "~/.server/platform/site-settings";
import { parseForm } from "~/.server/platform/validation";
import { saveSiteSettings } from "~/.server/settings/save-settings";
import { SecuritySettingsSchema } from "~/.server/settings/schemas";
import { signInProviders } from "~/.server/sso/providers";
import { ChoiceField } from "~/components/forms";
import { SecurityPanel } from "~/components/settings/security-panel";
import { SettingsForm } from "~/components/settings/settings-form";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/security";

export const meta: Route.MetaFunction = () => [{ title: "Security · System Settings" }];

export async function loader({ context }: Route.LoaderArgs) {
  const viewer = requirePermission(context.get(viewerContext), "update:settings:any");
  const [stored, providers] = await Promise.all([getStoredSettings(), signInProviders()]);
  return {
    adminEmail: viewer.user.email,
    adminCount: env.ADMIN_EMAILS.length,
    ssoProviders: providers.map((provider) => provider.name),
    values: { secondFactorRule: stored?.secondFactorRule ?? "nobody" },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requirePermission(context.get(viewerContext), "update:settings:any");
  const values = formText(await readForm(request));
  return respondToSettingsSave("security", values, () =>
    saveSiteSettings({ actor: viewer, values: parseForm(SecuritySettingsSchema, values) }),
  );
}

const SECOND_FACTOR_OPTIONS = [
  { value: "nobody", label: "Nobody is made to (anyone may set one up)" },
  { value: "admins", label: "Administrators" },
  { value: "everyone", label: "Everyone who signs in with a password" },
] as const;

/** Who must use a second step at sign-in, then who administers and the pages that set up sign-in. */
export default function SecuritySettings({ loaderData, actionData }: Route.ComponentProps) {
  const { values, ...panel } = loaderData;
  const chosen = actionData?.values?.secondFactorRule ?? values.secondFactorRule;
  return (
    <>
      <SettingsForm failure={actionData}>
        <ChoiceField
          name="secondFactorRule"
          legend="Second step at sign-in"
          hint="Who must enter a code from an authenticator app after their password. A passkey, or your company's own sign-in, counts as both steps. People without one set it up at their next sign-in."
          options={SECOND_FACTOR_OPTIONS}
          defaultValue={chosen}
          errors={actionData?.fieldErrors?.secondFactorRule}
        />
      </SettingsForm>
      <SecurityPanel {...panel} />
    </>
  );
}
