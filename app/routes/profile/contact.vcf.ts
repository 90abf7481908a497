import { countSave } from "~/.server/analytics/card-saves";
import { getOptionalViewer } from "~/.server/http/authz";
import { noteReusedCard } from "~/.server/http/cached-render";
import { cardMissing } from "~/.server/http/card-gone";
import { attachment, visitOf } from "~/.server/http/http";
import { contactFileOf } from "~/.server/profiles/contact-file";
import { cardForViewer, getCardByUsername } from "~/.server/profiles/get-card";
import { cardFileName } from "~/.server/profiles/vcard";
import type { Route } from "./+types/contact.vcf";

/** The anonymous contact file is cached by the server for the next visitor (server/page-cache.ts). */
export const handle = { cachedPage: "vcard" };

/** The card as a vCard 3.0 file, at a stable address that works without JavaScript. */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const [viewer, stored] = await Promise.all([getOptionalViewer(request), getCardByUsername(params.username)]);
  if (!stored) return cardMissing(params.username, "file");
  // The file holds what this viewer may see of the card, as its page does.
  const card = await cardForViewer(stored, viewer);
  noteReusedCard(context, card.id);
  // A saved contact file is one of the owner's figures; the cached file counts its own responses (server/page-cache.ts).
  if (request.method === "GET") {
    countSave({
      kind: "contact",
      visit: visitOf(request),
      profileId: card.id,
      ownerUserId: card.userId,
      viewerUserId: viewer?.user.id ?? null,
    });
  }
  const body = await contactFileOf(card);
  return new Response(body, {
    headers: {
      "Content-Type": "text/vcard; charset=utf-8",
      "Content-Disposition": attachment(cardFileName(card, ".vcf")),
      "Cache-Control": "no-cache",
    },
  });
}
