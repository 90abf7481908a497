import { cardMissing } from "~/.server/http/card-gone";
import { cardIcon } from "~/.server/profiles/icons";
import type { Route } from "./+types/icon.png";

/** The sizes a home screen asks for: Android's two and the iPhone's. */
const SIZES = [180, 192, 512] as const;

/** A card's home-screen icon: its brand's logo, or a card drawn in its colour. */
export async function loader({ params, request }: Route.LoaderArgs) {
  const size = SIZES.find((candidate) => new URL(request.url).pathname.endsWith(`/icon-${candidate}.png`)) ?? 192;
  const png = await cardIcon(params.username, size);
  if (!png) return cardMissing(params.username, "file");
  return new Response(new Uint8Array(png), {
    headers: { "Content-Type": "image/png", "Cache-Control": "public, max-age=3600" },
  });
}
