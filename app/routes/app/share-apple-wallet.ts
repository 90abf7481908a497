import { countSave } from "~/.server/analytics/card-saves";
import { cardMissing } from "~/.server/http/card-gone";
import { attachment, visitOf } from "~/.server/http/http";
import { notFound } from "~/.server/http/responses";
import { appleWalletPass } from "~/.server/wallet/apple";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/share-apple-wallet";

/** "Add to Apple Wallet": the member's own signed pass; 404 when the company has not set it up. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const profile = context.get(viewerContext).profile;
  const username = profile?.username ?? "";
  const made = await appleWalletPass(username);
  if (made === "unconfigured") notFound("Apple Wallet is not set up");
  // A card switched off has no pass: 410, as at its other addresses.
  if (made === "gone") return cardMissing(username, "file");
  if (profile)
    countSave({
      kind: "wallet",
      visit: visitOf(request),
      profileId: profile.id,
      ownerUserId: null,
      viewerUserId: null,
    });
  return new Response(new Uint8Array(made.pass), {
    headers: {
      "Content-Type": "application/vnd.apple.pkpass",
      "Content-Disposition": attachment(made.fileName),
      "Cache-Control": "private, no-store",
    },
  });
}
