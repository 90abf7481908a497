import { data } from "react-router";
import type { WayBack } from "~/lib/way-back";
import { env } from "../env";
import { safeRedirect } from "../validation";

type Places = {
  signedIn: boolean;
  brand: { name: string; website: string | null } | null;
  site: { companyName: string; website: string | null };
};

/** The page of this site the request came from (its Referer), unless it is this page or a sign-in page. */
function cameFrom(request: Request): string | null {
  const referer = request.headers.get("referer");
  if (!referer) return null;
  let from: URL;
  try {
    from = new URL(referer);
  } catch {
    return null;
  }
  const here = new URL(request.url);
  if (from.origin !== here.origin && from.origin !== new URL(env.PUBLIC_URL).origin) return null;
  const path = safeRedirect(`${from.pathname}${from.search}`, "");
  if (!path || from.pathname === here.pathname || /^\/(auth|sign-in)\b/.test(from.pathname)) return null;
  return path;
}

/** Where Back leads for this request (app/lib/way-back.ts). */
export function wayBack(request: Request, { signedIn, brand, site }: Places): WayBack | null {
  if (signedIn) return { kind: "directory", href: "/directory" };
  const page = cameFrom(request);
  if (page) return { kind: "page", href: page };
  if (brand?.website) return { kind: "website", href: brand.website, name: brand.name };
  if (site.website) return { kind: "website", href: site.website, name: site.companyName };
  return null;
}

/** The 404 of a card or QR page, carrying the way back its page offers. */
export function cardNotFound(back: WayBack | null): never {
  throw data({ message: "Profile not found", back }, { status: 404 });
}
