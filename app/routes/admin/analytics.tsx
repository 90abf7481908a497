import { PendingScreen } from "~/components/pending-screen";
import type { Route } from "./+types/analytics";

export const meta: Route.MetaFunction = () => [{ title: "Analytics" }];

export default function Screen() {
  return <PendingScreen title="Analytics" description="Platform insights and user engagement metrics." />;
}
