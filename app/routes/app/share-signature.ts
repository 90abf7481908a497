import { cardMissing } from "~/.server/http/card-gone";
import { attachment } from "~/.server/http/http";
import { signatureOfCard } from "~/.server/profiles/signature";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/share-signature";

/**
 * The member's e-mail signature as a small HTML document: shown in a frame on
 * the Share page, and downloaded with `?download`. Its policy lets its inline
 * styles and its images load, and nothing else.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = context.get(viewerContext);
  const username = viewer.profile?.username ?? "";
  const signature = await signatureOfCard(username);
  // A card switched off has no signature: 410, as at its other addresses.
  if (!signature) return cardMissing(username, "file");
  const download = new URL(request.url).searchParams.has("download");
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>E-mail signature</title></head><body style="margin:16px;background:#ffffff">${signature.html}</body></html>`;
  return new Response(body, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "private, no-store",
      "Content-Security-Policy":
        "default-src 'none'; img-src http: https: data:; style-src 'unsafe-inline'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'",
      ...(download ? { "Content-Disposition": attachment("email-signature.html") } : {}),
    },
  });
}
