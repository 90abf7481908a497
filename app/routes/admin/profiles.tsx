import { PendingScreen } from "~/components/pending-screen";
import type { Route } from "./+types/profiles";

export const meta: Route.MetaFunction = () => [{ title: "Profile Management" }];

export default function Screen() {
  return <PendingScreen title="Profile Management" description="Search, edit and remove profiles." />;
}
