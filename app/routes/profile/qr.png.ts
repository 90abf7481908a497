import { getCardByUsername } from "~/.server/cards";
import { attachment } from "~/.server/http";
import { CARD_QR, qrPng, qrTargetUrl } from "~/.server/qr";
import { cardFileName } from "~/.server/vcard";
import type { Route } from "./+types/qr.png";

/** 'Download QR': the card's code as `{first}_{last}_QR.png`, large enough to print. */
export async function loader({ params }: Route.LoaderArgs) {
  const card = await getCardByUsername(params.username);
  if (!card) throw new Response("Profile not found", { status: 404 });
  const png = await qrPng(qrTargetUrl(card.username), { ...CARD_QR, width: 1024 });
  return new Response(new Uint8Array(png), {
    headers: {
      "Content-Type": "image/png",
      "Content-Disposition": attachment(cardFileName(card, "_QR.png")),
      "Cache-Control": "public, max-age=3600",
    },
  });
}
