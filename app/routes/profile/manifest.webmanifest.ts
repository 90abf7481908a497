import { cardMissing } from "~/.server/http/card-gone";
import { getSiteSettings } from "~/.server/platform/site-settings";
import { getCardByUsername } from "~/.server/profiles/get-card";
import { brandPalette } from "~/lib/color";
import { fullName, greetingName } from "~/lib/names";
import type { Route } from "./+types/manifest.webmanifest";

/**
 * The web app manifest a member's own card page links to: it puts the card on
 * their phone's home screen, with its brand's icon, opening full screen on the
 * card (which the service worker caches for use without a network, routes/sw.js.ts).
 */
export async function loader({ params }: Route.LoaderArgs) {
  const [card, site] = await Promise.all([getCardByUsername(params.username), getSiteSettings()]);
  if (!card) return cardMissing(params.username, "file");
  const base = `/profile/${encodeURIComponent(card.username)}`;
  const palette = card.brand
    ? brandPalette(card.brand.primaryColor, card.brand.secondaryColor)
    : brandPalette(site.primaryColor, site.secondaryColor);
  const manifest = {
    id: base,
    name: fullName(card),
    short_name: card.firstName.slice(0, 12) || card.username.slice(0, 12),
    description: `${greetingName(card)}'s digital business card at ${card.brand?.name ?? site.companyName}`,
    start_url: base,
    scope: "/",
    display: "standalone",
    background_color: "#ffffff",
    theme_color: palette.light.solid,
    icons: [192, 512].map((size) => ({
      src: `${base}/icon-${size}.png`,
      sizes: `${size}x${size}`,
      type: "image/png",
      purpose: "any",
    })),
  };
  return new Response(JSON.stringify(manifest), {
    headers: { "Content-Type": "application/manifest+json; charset=utf-8", "Cache-Control": "no-cache" },
  });
}
