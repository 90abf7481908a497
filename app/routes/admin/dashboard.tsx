import { loadDashboard } from "~/.server/analytics/dashboard";
import { requireAction } from "~/.server/http/authz";
import { parseQuery } from "~/.server/http/responses";
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

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  return <AdminDashboard data={loaderData} />;
}
