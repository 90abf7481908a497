import { PendingScreen } from "~/components/pending-screen";
import type { Route } from "./+types/profiles-create";

export const meta: Route.MetaFunction = () => [{ title: "Create Profile" }];

export default function Screen() {
  return <PendingScreen title="Create Profile" description="Create an unclaimed profile that its owner claims by signing up with their email." />;
}
