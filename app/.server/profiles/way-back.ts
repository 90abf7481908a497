import type { WayBack } from "~/lib/way-back";

type Places = {
  signedIn: boolean;
  brand: { name: string; website: string | null } | null;
  site: { companyName: string; website: string | null };
};

/**
 * Where Back leads from a public card or QR page (app/lib/way-back.ts). It
 * depends on who asks and on the card, never on the request's Referer: a
 * visitor's card page is the same for every visitor, and is reused between
 * them (docs/decisions/018-reused-cards-and-batched-views.md). The page that
 * linked here is reached through the browser's history instead.
 */
export function wayBack({ signedIn, brand, site }: Places): WayBack | null {
  if (signedIn) return { kind: "directory", href: "/directory" };
  if (brand?.website) return { kind: "website", href: brand.website, name: brand.name };
  if (site.website) return { kind: "website", href: site.website, name: site.companyName };
  return null;
}
