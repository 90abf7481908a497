import { noteReusedCard } from "~/.server/cached-render";
import { cardMissing } from "~/.server/card-gone";
import { attachment } from "~/.server/http";
import { readPhotoJpeg } from "~/.server/images";
import { getCardByUsername } from "~/.server/profiles/get-card";
import { cardUrl } from "~/.server/profiles/qr";
import { buildVCard, cardFileName } from "~/.server/profiles/vcard";
import type { Route } from "./+types/contact.vcf";

/** The anonymous contact file is kept by the server for the next visitor (server/page-cache.ts). */
export const handle = { keptPage: "vcard" };

/** The card as a vCard 3.0 file, at a stable address that works without JavaScript. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const card = await getCardByUsername(params.username);
  if (!card) return cardMissing(params.username, "file");
  noteReusedCard(context, card.id);
  const photo = await readPhotoJpeg(card.profilePhoto);
  const body = buildVCard({
    firstName: card.firstName,
    lastName: card.lastName,
    email: card.email,
    phone: card.phone,
    title: card.title,
    organization: card.brand?.name ?? null,
    linkedinUrl: card.linkedinUrl,
    bio: card.bio,
    cardUrl: cardUrl(card.username),
    photoJpegBase64: photo ? Buffer.from(photo).toString("base64") : null,
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/vcard; charset=utf-8",
      "Content-Disposition": attachment(cardFileName(card, ".vcf")),
      "Cache-Control": "no-cache",
    },
  });
}
