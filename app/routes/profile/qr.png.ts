import { attachment } from "~/.server/http";
import { getCardByUsername } from "~/.server/profiles/get-card";
import { CARD_QR, qrPng, qrTargetUrl } from "~/.server/profiles/qr";
import { cardFileName } from "~/.server/profiles/vcard";
import { notFound } from "~/.server/responses";
import type { Route } from "./+types/qr.png";

/** 'Download QR': the card's code as `{first}_{last}_QR.png`, large enough to print. */
export async function loader({ params }: Route.LoaderArgs) {
  const card = await getCardByUsername(params.username);
  if (!card) notFound("Profile not found");
  const png = await qrPng(qrTargetUrl(card.username), { ...CARD_QR, width: 1024 });
  return new Response(new Uint8Array(png), {
    headers: {
      "Content-Type": "image/png",
      "Content-Disposition": attachment(cardFileName(card, "_QR.png")),
      "Cache-Control": "public, max-age=3600",
    },
  });
}
