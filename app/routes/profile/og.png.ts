import { noteReusedCard } from "~/.server/http/cached-render";
import { cardMissing } from "~/.server/http/card-gone";
import { isNotModified, notModified } from "~/.server/http/http";
import { getSiteSettings } from "~/.server/platform/site-settings";
import { cardForViewer, getCardByUsername } from "~/.server/profiles/get-card";
import { ogImage, ogVersion } from "~/.server/profiles/og-image";
import type { Route } from "./+types/og.png";

/** The anonymous preview image is cached by the server for the next visitor (server/page-cache.ts). */
export const handle = { cachedPage: "image" };

/**
 * The link-preview image; its URL carries the version. It shows a person, so
 * caches keep it five minutes and then ask again (a current copy costs a 304,
 * drawn nothing): a deactivated card's preview leaves them with the card.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const [stored, site] = await Promise.all([getCardByUsername(params.username), getSiteSettings()]);
  if (!stored) return cardMissing(params.username, "file");
  // Anyone may be shown the preview: it draws what a visitor may see, whoever asks.
  const card = await cardForViewer(stored, null);
  noteReusedCard(context, card.id);
  const version = ogVersion(card, site);
  const headers = {
    "Content-Type": "image/png",
    "Cache-Control": "public, max-age=300",
    ETag: `"og-${version}"`,
  };
  // The version names the image, so a current copy is answered without reading or drawing it.
  if (isNotModified(request, headers.ETag)) return notModified(headers);
  const png = await ogImage(card, site);
  return new Response(new Uint8Array(png), { headers });
}
