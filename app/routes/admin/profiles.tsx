import { data } from "react-router";
import { deleteProfileAsAdmin, updateProfileAsAdmin } from "~/.server/admin-profile-actions";
import { loadDashboard } from "~/.server/dashboard";
import { readUploadForm } from "~/.server/form-data";
import { AdminDashboard } from "~/components/admin/dashboard";
import { IMAGE_TOO_LARGE } from "~/lib/validation";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/profiles";

export const meta: Route.MetaFunction = () => [{ title: "Manage Profiles" }];

export async function loader({ request }: Route.LoaderArgs) {
  return loadDashboard(request, "profiles");
}

/** Edit and delete from the dashboard; each intent checks its own permission. */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = context.get(viewerContext);
  const { form, tooLarge } = await readUploadForm(request);
  if (tooLarge || !form) {
    return data({ ok: false as const, intent: "update", errors: { photo: [IMAGE_TOO_LARGE] } }, 413);
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
