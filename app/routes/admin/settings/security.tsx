import { requirePermission } from "~/.server/http/authz";
import { env } from "~/.server/platform/env";
import { signInProviders } from "~/.server/sso/providers";
import { SecurityPanel } from "~/components/settings/security-panel";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/security";

export const meta: Route.MetaFunction = () => [{ title: "Security · System Settings" }];

export async function loader({ context }: Route.LoaderArgs) {
  const viewer = requirePermission(context.get(viewerContext), "update:settings:any");
  return {
    adminEmail: viewer.user.email,
    adminCount: env.ADMIN_EMAILS.length,
    ssoProviders: (await signInProviders()).map((provider) => provider.name),
  };
}

/** Nothing here is a setting to save: it says who administers and leads to the pages that set up sign-in. */
export default function SecuritySettings({ loaderData }: Route.ComponentProps) {
  return <SecurityPanel {...loaderData} />;
}
