import { loadDashboard } from "~/.server/analytics/dashboard";
import { requireAction, requirePermission } from "~/.server/http/authz";
import { readForm } from "~/.server/http/form-data";
import { failure, parseQuery } from "~/.server/http/responses";
import { redirectWithToast } from "~/.server/http/toast";
import { safeRedirect } from "~/.server/platform/validation";
import { finishGettingStarted } from "~/.server/settings/getting-started";
import { AdminDashboard } from "~/components/admin/dashboard";
import type { LiveHandle } from "~/lib/realtime";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/dashboard";

/** Shows every card's view count: every view concerns it. */
export const handle: LiveHandle = { live: () => true };

export const meta: Route.MetaFunction = () => [{ title: "Dashboard" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireAction(context.get(viewerContext), "read:analytics");
  return parseQuery(() => loadDashboard(viewer, new URL(request.url)));
}

/** Hides the getting-started list for good. */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = requirePermission(context.get(viewerContext), "update:settings:any");
  const form = await readForm(request);
  if (form.get("intent") !== "finish-setup") return failure(400, { formError: "Reload the page and try again." });
  await finishGettingStarted(viewer);
  return redirectWithToast(safeRedirect(form.get("redirectTo"), "/admin/dashboard"), {
    text: "The set-up list is hidden. Settings, Brands and Import are in the menu.",
  });
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  return <AdminDashboard data={loaderData} />;
}
