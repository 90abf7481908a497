import { noteReusedCard } from "~/.server/http/cached-render";
import { cardMissing } from "~/.server/http/card-gone";
import { attachment, isNotModified, notModified } from "~/.server/http/http";
import { getCardByUsername } from "~/.server/profiles/get-card";
import { brandQrLogo, CARD_QR, qrPng, qrPngEtag, qrTargetUrl } from "~/.server/profiles/qr";
import { cardFileName } from "~/.server/profiles/vcard";
import type { Route } from "./+types/qr.png";

/** The printable code: large enough to print, encoded once per address and colours (docs/decisions/013-performance.md). */
const DOWNLOAD_QR = { ...CARD_QR, width: 1024 };

/** The anonymous QR code is cached by the server for the next visitor (server/page-cache.ts). */
export const handle = { cachedPage: "image" };

/** 'Download QR': the card's code as `{first}_{last}_QR.png`, large enough to print. */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const card = await getCardByUsername(params.username);
  if (!card) return cardMissing(params.username, "file");
  noteReusedCard(context, card.id);
  const target = qrTargetUrl(card.username);
  const options = { ...DOWNLOAD_QR, logo: await brandQrLogo(card.brand) };
  const fileName = cardFileName(card, "_QR.png");
  const headers = {
    "Content-Type": "image/png",
    "Content-Disposition": attachment(fileName),
    // Public: the code shows only the card's address. An hour, then a cheap revalidation.
    "Cache-Control": "public, max-age=3600",
    ETag: qrPngEtag(target, options, fileName),
  };
  if (isNotModified(request, headers.ETag)) return notModified(headers);
  const png = await qrPng(target, options);
  return new Response(new Uint8Array(png), { headers });
}
