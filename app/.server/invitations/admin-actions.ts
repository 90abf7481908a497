import { z } from "zod";
import type { Viewer } from "../authz";
import { requirePermission } from "../authz";
import { failure } from "../responses";
import { redirectWithToast } from "../toast";
import { issueInvitationMails } from "./invitations";
import { retryFailedJobs } from "./mail-queue";

/** The profile-management buttons about invitations. */
export const INVITATION_INTENTS = new Set(["invite", "invite-selected", "invite-all", "remind-all", "retry-mail"]);

const MAX_SELECTED = 500;
const IdsSchema = z
  .array(z.uuid({ message: "One of the chosen profiles is not valid." }))
  .min(1, "Choose at least one profile to invite.")
  .max(MAX_SELECTED, `Invite at most ${MAX_SELECTED} chosen profiles at once.`);

function people(count: number) {
  return count === 1 ? "1 person" : `${count.toLocaleString("en")} people`;
}

/**
 * Invite one card, the chosen cards or everyone not yet invited; remind everyone
 * invited who has not claimed; retry the mails that failed. Each answers with
 * a message on the list it came from.
 */
export async function invitationAction({
  viewer,
  form,
  intent,
  back,
}: {
  viewer: Viewer;
  form: FormData;
  intent: string;
  back: string;
}): Promise<Response | ReturnType<typeof failure>> {
  requirePermission(viewer, "invite:profile:any");
  switch (intent) {
    case "invite":
    case "invite-selected": {
      const ids = intent === "invite" ? [form.get("id")] : form.getAll("ids");
      const parsed = IdsSchema.safeParse(ids.map((id) => (typeof id === "string" ? id : "")));
      if (!parsed.success) return failure(400, { formError: parsed.error.issues[0]?.message ?? "Choose profiles." });
      const { queued } = await issueInvitationMails({
        kind: "invitation",
        scope: { ids: parsed.data },
        actor: viewer,
      });
      return redirectWithToast(back, {
        text: queued
          ? `Invitation on its way to ${people(queued)}.`
          : "Nobody was invited: the chosen profiles are already claimed.",
        tone: queued ? "success" : "error",
      });
    }
    case "invite-all": {
      const { queued } = await issueInvitationMails({ kind: "invitation", scope: "not-invited", actor: viewer });
      return redirectWithToast(back, {
        text: queued ? `Invitation on its way to ${people(queued)}.` : "Everyone unclaimed has been invited already.",
      });
    }
    case "remind-all": {
      const { queued } = await issueInvitationMails({ kind: "reminder", scope: "invited", actor: viewer });
      return redirectWithToast(back, {
        text: queued ? `Reminder on its way to ${people(queued)}.` : "Nobody is waiting for a reminder.",
      });
    }
    default: {
      const retried = await retryFailedJobs();
      return redirectWithToast(back, {
        text: retried
          ? `Trying again to send ${retried === 1 ? "1 mail" : `${retried} mails`}.`
          : "No mail is waiting to be retried.",
      });
    }
  }
}
