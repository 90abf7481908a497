import { PendingScreen } from "~/components/pending-screen";
import type { Route } from "./+types/settings";

export const meta: Route.MetaFunction = () => [{ title: "System Settings" }];

export default function Screen() {
  return <PendingScreen title="System Settings" description="Company details, branding and legal texts." />;
}
