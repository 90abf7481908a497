import { cardMissing } from "~/.server/http/card-gone";
import { attachment } from "~/.server/http/http";
import { type BackgroundSize, cardBackground } from "~/.server/profiles/background";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/share-background";

/** The member's video-call background, 1920×1080 or 1280×720 by its address; `?download` saves it. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = context.get(viewerContext);
  const username = viewer.profile?.username ?? "";
  const url = new URL(request.url);
  const size: BackgroundSize = url.pathname.endsWith("-1280.png") ? 1280 : 1920;
  const png = await cardBackground(username, size);
  // A card switched off has no background: 410, as at its other addresses.
  if (!png) return cardMissing(username, "file");
  return new Response(new Uint8Array(png), {
    headers: {
      "Content-Type": "image/png",
      "Cache-Control": "private, max-age=300",
      ...(url.searchParams.has("download") ? { "Content-Disposition": attachment(`background-${size}.png`) } : {}),
    },
  });
}
