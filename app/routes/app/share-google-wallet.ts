import { redirect } from "react-router";
import { countSave } from "~/.server/analytics/card-saves";
import { cardMissing } from "~/.server/http/card-gone";
import { visitOf } from "~/.server/http/http";
import { notFound } from "~/.server/http/responses";
import { googleWalletSaveUrl } from "~/.server/wallet/google";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/share-google-wallet";

/** "Save to Google Wallet": on to Google with the member's signed pass; 404 when the company has not set it up. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const profile = context.get(viewerContext).profile;
  const username = profile?.username ?? "";
  const url = await googleWalletSaveUrl(username);
  if (url === "unconfigured") notFound("Google Wallet is not set up");
  // A card switched off has no pass: 410, as at its other addresses.
  if (url === "gone") return cardMissing(username, "file");
  // Counted as the member's wallet adds: Google says nothing back, so a press of the button is the add.
  if (profile)
    countSave({
      kind: "wallet",
      visit: visitOf(request),
      profileId: profile.id,
      ownerUserId: null,
      viewerUserId: null,
    });
  return redirect(url, { headers: { "Cache-Control": "no-store" } });
}
