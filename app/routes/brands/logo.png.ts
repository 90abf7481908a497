import { brandLogoPng } from "~/.server/brands/logo-png";
import { SIGNATURE_LOGO_HEIGHT } from "~/.server/profiles/signature";
import type { Route } from "./+types/logo.png";

/**
 * A brand's logo as PNG, for e-mail signatures: mail programs fetch it from
 * wherever the mail is read, without a session, and many show no WebP. The
 * logo is on every public card of the brand already.
 */
export async function loader({ params }: Route.LoaderArgs) {
  const id = /^[0-9]{1,9}$/.test(params.id) ? Number(params.id) : 0;
  const logo = await brandLogoPng(id, SIGNATURE_LOGO_HEIGHT);
  if (!logo)
    return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(new Uint8Array(logo.png), {
    headers: { "Content-Type": "image/png", "Cache-Control": "public, max-age=86400" },
  });
}
