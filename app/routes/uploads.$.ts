import { isNotModified, notModified } from "~/.server/http/http";
import { notFound } from "~/.server/http/responses";
import { getStorage } from "~/.server/platform/storage";
import { isPhotoOfActiveCard } from "~/.server/profiles/photo";
import type { Route } from "./+types/uploads.$";

/**
 * Uploaded images; keys are content-addressed, so their bytes never change.
 * Brand and site images are cached by browsers for a year. A person's photo is
 * served only while their card is active, and cached for five minutes, then
 * checked again (a copy still current costs a 304): a deactivated person's
 * photo leaves caches with their card.
 */
export async function loader({ params, request }: Route.LoaderArgs) {
  const key = params["*"] ?? "";
  const personal = key.startsWith("profiles/");
  if (personal && !(await isPhotoOfActiveCard(key))) notFound();
  const headers = {
    "Cache-Control": personal ? "public, max-age=300" : "public, max-age=31536000, immutable",
    ETag: `"${key.replace(/[^\w.-]/g, "-")}"`,
    "X-Content-Type-Options": "nosniff",
  };
  if (personal && isNotModified(request, headers.ETag)) return notModified(headers);
  const object = await getStorage().get(key);
  if (!object) notFound();
  return new Response(new Uint8Array(object.body), { headers: { ...headers, "Content-Type": object.contentType } });
}
