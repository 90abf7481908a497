import { redirect } from "react-router";
import { requirePermission } from "~/.server/http/authz";
import { SETTINGS_TABS } from "~/lib/settings";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/index";

/** The settings open on their first tab; an address of the one-page screen (`?tab=joining`) opens that tab. */
export function loader({ request, context }: Route.LoaderArgs) {
  requirePermission(context.get(viewerContext), "update:settings:any");
  const asked = new URL(request.url).searchParams.get("tab");
  const tab = SETTINGS_TABS.find((candidate) => candidate.value === asked) ?? SETTINGS_TABS[0];
  return redirect(`/admin/settings/${tab.value}`);
}
