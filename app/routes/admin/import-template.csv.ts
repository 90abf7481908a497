import { requireAction, requireAdministration } from "~/.server/http/authz";
import { csvResponse } from "~/.server/http/responses";
import { templateCsv } from "~/.server/imports/files";
import type { Route } from "./+types/import-template.csv";

/** A CSV file to fill in: one column per card field, headed as the import recognises them. */
export async function loader({ request }: Route.LoaderArgs) {
  requireAction(await requireAdministration(request), "create:profile");
  return csvResponse(templateCsv(), "namecard-import-template.csv");
}
