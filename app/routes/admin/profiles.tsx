import { BrandAdministrationSchema, setAdministeredBrands } from "~/.server/accounts/brand-administration";
import { setRole } from "~/.server/accounts/roles";
import { removeSecondFactor } from "~/.server/accounts/second-factor";
import { loadDashboard } from "~/.server/analytics/dashboard";
import { brandLabel } from "~/.server/brands/list-brands";
import { requireAction, requirePermission, type Viewer } from "~/.server/http/authz";
import { type BodyHandle, formText, imageChange, readUploadForm } from "~/.server/http/form-data";
import { failure, failureFrom, notFound, parseQuery } from "~/.server/http/responses";
import { redirectWithToast } from "~/.server/http/toast";
import {
  ChosenProfileIdsSchema,
  cancelQueuedMails,
  inviteChosenProfiles,
  inviteEveryoneNotInvited,
  remindEveryoneInvited,
  retryFailedMails,
  sendInvitationTest,
} from "~/.server/invitations/admin-actions";
import { wasInvited } from "~/.server/invitations/summary";
import { EditVersionSchema } from "~/.server/platform/edit-version";
import { NotFoundError, ValidationError } from "~/.server/platform/errors";
import { BrandChoiceSchema, parseForm, safeRedirect } from "~/.server/platform/validation";
import { setCardState } from "~/.server/profiles/deactivation";
import { deleteProfile } from "~/.server/profiles/delete-profile";
import { parseProfileForm } from "~/.server/profiles/field-checks";
import { profileDeletedMessage, profileSavedMessage } from "~/.server/profiles/messages";
import { releaseOldUsername } from "~/.server/profiles/previous-usernames";
import { ProfileFieldsSchema, ProfileIdSchema, ReleaseUsernameSchema } from "~/.server/profiles/schemas";
import { SetBrandSchema, setBrandOfCards } from "~/.server/profiles/set-brand";
import { updateProfile } from "~/.server/profiles/update-profile";
import { AdminDashboard } from "~/components/admin/dashboard";
import { IMAGE_TOO_LARGE } from "~/lib/limits";
import { fullName } from "~/lib/names";
import type { LiveHandle } from "~/lib/realtime";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/profiles";

/**
 * Shows every card's view count: every view concerns it. Its edit form
 * carries a photo: the server allows such a body (server/routes.ts).
 */
export const handle: LiveHandle & BodyHandle = { live: () => true, bodyLimit: "upload" };

export const meta: Route.MetaFunction = () => [{ title: "Manage Profiles" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireAction(context.get(viewerContext), "update:profile");
  return parseQuery(() => loadDashboard(viewer, new URL(request.url), "profiles"));
}

/** Edit, delete, deactivate, reactivate and change a role from the dashboard; each intent checks its own permission, then goes back to the list. */
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
      requireAction(viewer, "update:profile");
      try {
        const { id } = parseForm(ProfileIdSchema, values);
        const fields = await parseProfileForm(ProfileFieldsSchema, values, id);
        const saved = await updateProfile({
          actor: viewer,
          profileId: id,
          fields,
          photo: await imageChange(form, "photo"),
          version: parseForm(EditVersionSchema, values).version,
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
      requireAction(viewer, "delete:profile");
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
      requireAction(viewer, "deactivate:profile");
      const deactivate = values.intent === "deactivate";
      try {
        const { id } = parseForm(ProfileIdSchema, values);
        const card = await setCardState({ actor: viewer, profileId: id, state: deactivate ? "deactivated" : "active" });
        const name = fullName(card);
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
    case "make-admin":
    case "remove-admin": {
      requirePermission(viewer, "update:role:any");
      const admin = values.intent === "make-admin";
      let id: string;
      try {
        ({ id } = parseForm(ProfileIdSchema, values));
      } catch (error) {
        return failureFrom(error);
      }
      try {
        const person = await setRole({ actor: viewer, profileId: id, role: admin ? "admin" : "member" });
        const name = fullName(person);
        return redirectWithToast(back, {
          text: admin ? `${name} is now an administrator.` : `${name} is a member again, no longer an administrator.`,
        });
      } catch (error) {
        // Said where the button was pressed, with or without JavaScript.
        const refusal = error instanceof ValidationError ? error.fieldErrors.id?.[0] : undefined;
        if (refusal) return redirectWithToast(back, { text: refusal, tone: "error" });
        return failureFrom(error, {
          notFound: "Failed to change the role: the card no longer exists.",
          unexpected: "Failed to change the role. Please try again.",
        });
      }
    }
    case "brand-administration": {
      requirePermission(viewer, "update:role:any");
      try {
        const { id, brandIds } = parseForm(BrandAdministrationSchema, { ...values, brandIds: form.getAll("brandIds") });
        const person = await setAdministeredBrands({ actor: viewer, profileId: id, brandIds });
        return redirectWithToast(back, {
          text: person.brands.length
            ? `${person.name} now runs ${person.brands.join(", ")}.`
            : `${person.name} no longer runs a brand.`,
        });
      } catch (error) {
        return failureFrom(error, {
          notFound: "Failed to change the brands they run: the card no longer exists.",
          unexpected: "Failed to change the brands they run. Please try again.",
        });
      }
    }
    case "set-brand": {
      requireAction(viewer, "update:profile");
      // A form no list sends is refused as such; a move the person may not make is told on the list.
      const parsed = SetBrandSchema.safeParse({ ids: form.getAll("ids"), brandId: values.brandId ?? "" });
      if (!parsed.success) return failure(400, { formError: parsed.error.issues[0]?.message ?? "Choose profiles." });
      try {
        const { ids, brandId } = parsed.data;
        const { moved } = await setBrandOfCards({ actor: viewer, profileIds: ids, brandId });
        return redirectWithToast(back, {
          text: moved
            ? `${people(moved)} moved to ${await brandLabel(brandId)}.`
            : `Nobody was moved: the chosen people are in ${await brandLabel(brandId)} already.`,
          tone: moved ? "success" : "error",
        });
      } catch (error) {
        const refusal = error instanceof ValidationError ? Object.values(error.fieldErrors)[0]?.[0] : undefined;
        if (refusal) return redirectWithToast(back, { text: refusal, tone: "error" });
        return failureFrom(error, { unexpected: "Failed to move the chosen people. Please try again." });
      }
    }
    case "remove-second-factor": {
      requirePermission(viewer, "update:role:any");
      try {
        const { id } = parseForm(ProfileIdSchema, values);
        const person = await removeSecondFactor({ actor: viewer, profileId: id });
        const name = fullName(person);
        return redirectWithToast(back, {
          text: person.removed
            ? `${name}'s authenticator app and passkeys were removed, and they were signed out everywhere.`
            : `${name} had no second step to remove.`,
        });
      } catch (error) {
        const refusal = error instanceof ValidationError ? error.fieldErrors.id?.[0] : undefined;
        if (refusal) return redirectWithToast(back, { text: refusal, tone: "error" });
        return failureFrom(error, {
          notFound: "Failed to remove the second step: the card no longer exists.",
          unexpected: "Failed to remove the second step. Please try again.",
        });
      }
    }
    case "release-username": {
      requireAction(viewer, "update:profile");
      try {
        const { id, username } = parseForm(ReleaseUsernameSchema, values);
        await releaseOldUsername({ actor: viewer, profileId: id, username });
        return redirectWithToast(back, { text: `${username} is free: it no longer leads to this card.` });
      } catch (error) {
        return failureFrom(error, {
          notFound: "That old username is no longer the card's.",
          unexpected: "Failed to release the username. Please try again.",
        });
      }
    }
    default:
      return failure(400, { formError: "Unknown action." });
  }
}

/** The profile-management buttons about invitations. */
const INVITATION_INTENTS = new Set([
  "invite",
  "invite-selected",
  "invite-all",
  "remind-all",
  "retry-mail",
  "test-invitation",
  "cancel-queued",
]);

function people(count: number) {
  return count === 1 ? "1 person" : `${count.toLocaleString("en")} people`;
}

/**
 * Invite one card, the chosen cards or everyone not yet invited; remind everyone
 * invited who has not claimed; retry the mails that failed. Each answers with
 * a message on the list it came from.
 */
async function invitationAction({
  viewer,
  form,
  intent,
  back,
}: {
  viewer: Viewer;
  form: FormData;
  intent: string;
  back: string;
}) {
  const actor = requireAction(viewer, "invite:profile");
  // The mail queue is the whole site's: only its administrators retry or cancel what waits in it.
  if (intent === "retry-mail" || intent === "cancel-queued") requirePermission(viewer, "invite:profile:any");
  switch (intent) {
    case "invite":
    case "invite-selected": {
      const ids = intent === "invite" ? [form.get("id")] : form.getAll("ids");
      const parsed = ChosenProfileIdsSchema.safeParse(ids.map((id) => (typeof id === "string" ? id : "")));
      if (!parsed.success) return failure(400, { formError: parsed.error.issues[0]?.message ?? "Choose profiles." });
      // One card invited before gets a reminder, and is told so.
      const reminder = intent === "invite" && parsed.data[0] !== undefined && (await wasInvited(parsed.data[0]));
      const { queued } = await inviteChosenProfiles({ actor, profileIds: parsed.data });
      return redirectWithToast(back, {
        text: queued
          ? `${reminder ? "Reminder" : "Invitation"} on its way to ${people(queued)}.`
          : "Nobody was invited: the chosen profiles are claimed, asked for no more invitations, or had one less than an hour ago.",
        tone: queued ? "success" : "error",
      });
    }
    case "invite-all": {
      const { queued } = await inviteEveryoneNotInvited({ actor });
      return redirectWithToast(back, {
        text: queued ? `Invitation on its way to ${people(queued)}.` : "Everyone unclaimed has been invited already.",
      });
    }
    case "remind-all": {
      const { queued } = await remindEveryoneInvited({ actor });
      return redirectWithToast(back, {
        text: queued
          ? `Reminder on its way to ${people(queued)}.`
          : "Nobody is waiting for a reminder (each person gets one an hour at most).",
      });
    }
    case "test-invitation": {
      const brand = BrandChoiceSchema.safeParse(form.get("brand") ?? "");
      if (!brand.success) return failure(400, { formError: "Choose a brand from the list." });
      const sent = await sendInvitationTest({ actor, brandId: brand.data }).catch((error: unknown) => {
        if (error instanceof NotFoundError) notFound("No such brand.");
        throw error;
      });
      return redirectWithToast(back, {
        text:
          sent === "sent"
            ? `A test invitation is on its way to ${actor.user.email}.`
            : "Several test invitations went out this hour: try again later.",
        tone: sent === "sent" ? "success" : "error",
      });
    }
    case "cancel-queued": {
      const cancelled = await cancelQueuedMails({ actor });
      return redirectWithToast(back, {
        text: cancelled
          ? `${cancelled === 1 ? "1 invitation mail" : `${cancelled.toLocaleString("en")} invitation mails`} will not be sent.`
          : "No invitation mail was waiting: they have all gone out.",
      });
    }
    default: {
      const { retried } = await retryFailedMails({ actor });
      return redirectWithToast(back, {
        text: retried
          ? `Trying again to send ${retried === 1 ? "1 mail" : `${retried} mails`}.`
          : "No mail is waiting to be retried.",
      });
    }
  }
}

export default function ManageProfiles({ loaderData }: Route.ComponentProps) {
  return <AdminDashboard data={loaderData} />;
}
