import { data } from "react-router";
import { deleteProfileAsAdmin, readAdminForm, updateProfileAsAdmin } from "~/.server/admin-profile-actions";
import { loadDashboard } from "~/.server/dashboard";
import { AdminDashboard } from "~/components/admin/dashboard";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/profiles";

export const meta: Route.MetaFunction = () => [{ title: "Manage Profiles" }];

export async function loader({ request }: Route.LoaderArgs) {
  return loadDashboard(request, "profiles");
}

/** Edit and delete from the dashboard; each intent checks its own permission. */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = context.get(viewerContext);
  const { form, tooLarge } = await readAdminForm(request);
  if (tooLarge || !form) {
    return data(
      { ok: false as const, intent: "update", errors: { photo: ["The image is larger than 5MB. Choose a smaller one."] } },
      413,
    );
  }
  switch (form.get("intent")) {
    case "update":
      return updateProfileAsAdmin(viewer, form);
    case "delete":
      return deleteProfileAsAdmin(viewer, form);
    default:
      return data({ ok: false as const, intent: "unknown", message: "Unknown action." }, 400);
  }
}

export default function ManageProfiles({ loaderData }: Route.ComponentProps) {
  return <AdminDashboard data={loaderData} />;
}
