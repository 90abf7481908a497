import { PendingScreen } from "~/components/pending-screen";
import type { Route } from "./+types/brands";

export const meta: Route.MetaFunction = () => [{ title: "Brand Management" }];

export default function Screen() {
  return <PendingScreen title="Brand Management" description="Manage company brands and their visual identity." />;
}
