import { randomInt } from "node:crypto";
import { createContext, type RouterContextProvider } from "react-router";

/**
 * A page rendered to be reused for anonymous visitors (server/page-cache.ts,
 * docs/decisions/018-reused-cards-and-batched-views.md). The loader names the
 * card it shows, and writes its view count as `placeholder`, which each
 * response replaces with the count at that moment.
 */
export type CachedRender = { profileId: string | null; placeholder: number };

export const cachedRenderContext = createContext<CachedRender | null>(null);

/** A fresh placeholder count: 15 random digits, which no page shows by chance. */
export function newPlaceholder(): number {
  return 100_000_000_000_000 + randomInt(0, 2 ** 47);
}

/**
 * What the loader of a reusable page shows as the view count: the
 * placeholder when the page is rendered to be reused (the card is then noted),
 * the count itself otherwise.
 */
export function reusableCount(
  context: Readonly<RouterContextProvider> | undefined,
  profileId: string,
  count: number,
): number {
  const render = context?.get(cachedRenderContext);
  if (!render) return count;
  render.profileId = profileId;
  return render.placeholder;
}

/** Notes the card a reusable page without a count shows (the contact file). */
export function noteReusedCard(context: Readonly<RouterContextProvider> | undefined, profileId: string) {
  const render = context?.get(cachedRenderContext);
  if (render) render.profileId = profileId;
}
