import { loadDashboard } from "~/.server/analytics/dashboard";
import { parseQuery } from "~/.server/http/responses";
import { AdminDashboard } from "~/components/admin/dashboard";
import type { LiveHandle } from "~/lib/realtime";
import type { Route } from "./+types/dashboard";

/** Shows every card's view count: every view concerns it. */
export const handle: LiveHandle = { live: () => true };

export const meta: Route.MetaFunction = () => [{ title: "Dashboard" }];

export async function loader({ request }: Route.LoaderArgs) {
  return parseQuery(() => loadDashboard(new URL(request.url)));
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  return <AdminDashboard data={loaderData} />;
}
