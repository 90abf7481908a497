import { attachment } from "~/.server/http/http";
import { csvResponse, notFound, parseQuery } from "~/.server/http/responses";
import { leadsOf } from "~/.server/leads/access";
import { leadsCsv, leadsVcf } from "~/.server/leads/owner";
import { isoDay } from "~/.server/platform/csv";
import { parseSearchText } from "~/.server/platform/validation";
import { viewerContext } from "~/middleware/viewer.server";
import type { Route } from "./+types/leads-export";

/** A card's leads (those the search finds) as a spreadsheet or as one contact file of them all. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const q = parseQuery(() => parseSearchText(url));
  const card = await leadsOf(context.get(viewerContext), url.searchParams.get("card"));
  if (!card || card === "hidden") notFound("Leads not found");
  const name = `leads-${card.username}-${isoDay()}`;
  if (url.pathname.endsWith(".vcf")) {
    return new Response(await leadsVcf(card.profileId, q), {
      headers: {
        "Content-Type": "text/vcard; charset=utf-8",
        "Content-Disposition": attachment(`${name}.vcf`),
        "Cache-Control": "no-store",
      },
    });
  }
  return csvResponse(await leadsCsv(card.profileId, q), `${name}.csv`);
}
