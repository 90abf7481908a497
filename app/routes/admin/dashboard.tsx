import { getOverviewStats } from "~/.server/stats";
import { AdminOverview } from "~/components/admin-overview";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = () => [{ title: "Dashboard" }];

export async function loader() {
  return { stats: await getOverviewStats() };
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  return <AdminOverview stats={loaderData.stats} />;
}
