import { getSiteSettings } from "~/.server/platform/site-settings";
import { getStorage } from "~/.server/platform/storage";

/** Browsers and feed readers ask for it without reading a page; it can change in the settings, so it is cached for an hour. */
const FAVICON_CACHE = "public, max-age=3600";

/**
 * `/favicon.ico`, for whoever asks without reading a page's icon link: the
 * uploaded favicon (a PNG, from this site's store), else the product's own.
 */
export async function loader() {
  const { favicon } = await getSiteSettings();
  const object = favicon ? await getStorage().get(favicon) : null;
  if (!object)
    return new Response(null, { status: 302, headers: { Location: "/favicon.svg", "Cache-Control": FAVICON_CACHE } });
  return new Response(new Uint8Array(object.body), {
    headers: {
      "Content-Type": object.contentType,
      "Cache-Control": FAVICON_CACHE,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
