import { PendingScreen } from "~/components/pending-screen";
import type { Route } from "./+types/directory";

export const meta: Route.MetaFunction = () => [{ title: "Directory" }];

export default function Screen() {
  return <PendingScreen title="Directory" description="Find and connect with your colleagues across all brands." />;
}
