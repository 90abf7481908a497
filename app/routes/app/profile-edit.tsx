import { PendingScreen } from "~/components/pending-screen";
import type { Route } from "./+types/profile-edit";

export const meta: Route.MetaFunction = () => [{ title: "Edit Profile" }];

export default function Screen() {
  return <PendingScreen title="Edit Profile" description="Update the details on your digital business card." />;
}
