import { redirect } from "react-router";
import { cardMissing } from "~/.server/card-gone";
import { notFound } from "~/.server/responses";
import { googleWalletSaveUrl } from "~/.server/wallet/google";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/share-google-wallet";

/** "Save to Google Wallet": on to Google with the member's signed pass; 404 when the company has not set it up. */
export async function loader({ context }: Route.LoaderArgs) {
  const username = context.get(viewerContext).profile?.username ?? "";
  const url = await googleWalletSaveUrl(username);
  if (url === "unconfigured") notFound("Google Wallet is not set up");
  // A card switched off has no pass: 410, as at its other addresses.
  if (url === "gone") return cardMissing(username, "file");
  return redirect(url, { headers: { "Cache-Control": "no-store" } });
}
