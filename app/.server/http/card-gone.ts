import { data, redirect } from "react-router";
import { deactivatedCardResponse } from "../profiles/deactivation";
import { notFound } from "./responses";

/**
 * A card address whose card was not found among the active ones: a
 * deactivated card's address (its username now or before) responds 410 Gone,
 * or redirects to its brand's website when the site says so
 * (docs/decisions/019-deactivation-and-audit-log.md); anything else is 404.
 * `page` responds with a page the error boundary words; `file` with plain text.
 */
export async function cardMissing(username: string, kind: "page" | "file"): Promise<never> {
  const deactivated = await deactivatedCardResponse(username);
  if (!deactivated) notFound("Profile not found");
  if (deactivated.redirectTo) throw redirect(deactivated.redirectTo, { headers: { "Cache-Control": "no-store" } });
  if (kind === "page")
    throw data({ message: "This card is no longer active.", contact: deactivated.contact }, { status: 410 });
  throw new Response("This card is no longer active.", {
    status: 410,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
