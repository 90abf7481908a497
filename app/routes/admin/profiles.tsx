import { loadDashboard } from "~/.server/analytics/dashboard";
import { requirePermission } from "~/.server/authz";
import { formText, imageChange, readUploadForm } from "~/.server/form-data";
import { INVITATION_INTENTS, invitationAction } from "~/.server/invitations/admin-actions";
import { setCardState } from "~/.server/profiles/deactivation";
import { deleteProfile } from "~/.server/profiles/delete-profile";
import { parseProfileForm } from "~/.server/profiles/field-checks";
import { profileDeletedMessage, profileSavedMessage } from "~/.server/profiles/messages";
import { ProfileFieldsSchema, ProfileIdSchema } from "~/.server/profiles/schemas";
import { updateProfile } from "~/.server/profiles/update-profile";
import { failure, failureFrom, parseQuery } from "~/.server/responses";
import { redirectWithToast } from "~/.server/toast";
import { parseForm, safeRedirect } from "~/.server/validation";
import { AdminDashboard } from "~/components/admin/dashboard";
import { IMAGE_TOO_LARGE } from "~/lib/limits";
import type { LiveHandle } from "~/lib/realtime";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/profiles";

/** Shows every card's view count: every view concerns it. */
export const handle: LiveHandle = { live: () => true };

export const meta: Route.MetaFunction = () => [{ title: "Manage Profiles" }];

export async function loader({ request }: Route.LoaderArgs) {
  return parseQuery(() => loadDashboard(new URL(request.url), "profiles"));
}

/** Edit, delete, deactivate and reactivate from the dashboard; each intent checks its own permission, then goes back to the list. */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = context.get(viewerContext);
  const { form } = await readUploadForm(request);
  if (!form) return failure(413, { fieldErrors: { photo: [IMAGE_TOO_LARGE] } });
  const values = formText(form);
  const back = safeRedirect(values.redirectTo, "/admin/profiles");
  if (INVITATION_INTENTS.has(values.intent ?? ""))
    return invitationAction({ viewer, form, intent: values.intent ?? "", back });
  switch (values.intent) {
    case "update": {
      requirePermission(viewer, "update:profile:any");
      try {
        const { id } = parseForm(ProfileIdSchema, values);
        const fields = await parseProfileForm(ProfileFieldsSchema, values, id);
        const saved = await updateProfile({
          actor: viewer,
          profileId: id,
          fields,
          photo: await imageChange(form, "photo"),
        });
        return redirectWithToast(back, {
          text: profileSavedMessage(saved.profile, saved.photoSkipped, saved.emailChange),
        });
      } catch (error) {
        return failureFrom(error, {
          values,
          notFound: "Failed to update profile: it no longer exists.",
          unexpected: "Failed to update profile. Please try again.",
        });
      }
    }
    case "delete": {
      requirePermission(viewer, "delete:profile:any");
      try {
        const { id } = parseForm(ProfileIdSchema, values);
        const deleted = await deleteProfile({ actor: viewer, profileId: id });
        return redirectWithToast(back, { text: profileDeletedMessage(deleted) });
      } catch (error) {
        return failureFrom(error, {
          notFound: "Failed to delete profile: it no longer exists.",
          unexpected: "Failed to delete profile. Please try again.",
        });
      }
    }
    case "deactivate":
    case "reactivate": {
      requirePermission(viewer, "delete:profile:any");
      const deactivate = values.intent === "deactivate";
      try {
        const { id } = parseForm(ProfileIdSchema, values);
        const card = await setCardState({ actor: viewer, profileId: id, state: deactivate ? "deactivated" : "active" });
        const name = `${card.firstName} ${card.lastName}`;
        return redirectWithToast(back, {
          text: deactivate
            ? `${name}'s card was deactivated: they are signed out and their card is hidden.`
            : `${name}'s card is active again.`,
        });
      } catch (error) {
        return failureFrom(error, {
          notFound: `Failed to ${values.intent} the card: it no longer exists.`,
          unexpected: `Failed to ${values.intent} the card. Please try again.`,
        });
      }
    }
    default:
      return failure(400, { formError: "Unknown action." });
  }
}

export default function ManageProfiles({ loaderData }: Route.ComponentProps) {
  return <AdminDashboard data={loaderData} />;
}
