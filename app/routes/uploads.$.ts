import { notFound } from "~/.server/responses";
import { getStorage } from "~/.server/storage";
import type { Route } from "./+types/uploads.$";

/** Uploaded images; keys are content-addressed, so they never change. */
export async function loader({ params }: Route.LoaderArgs) {
  const object = await getStorage().get(params["*"] ?? "");
  if (!object) notFound();
  return new Response(new Uint8Array(object.body), {
    headers: {
      "Content-Type": object.contentType,
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
