import { requireAction, requireAdministration } from "~/.server/http/authz";
import { csvResponse, notFound } from "~/.server/http/responses";
import { reportCsv } from "~/.server/imports/files";
import { NotFoundError } from "~/.server/platform/errors";
import type { Route } from "./+types/import-report.csv";

/** Every row of an import that was not imported (or, before it runs, will not be), with its reason. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const viewer = requireAction(await requireAdministration(request), "create:profile");
  try {
    const report = await reportCsv(viewer, params.id);
    return csvResponse(report.body, report.fileName);
  } catch (error) {
    if (error instanceof NotFoundError) notFound("Import not found");
    throw error;
  }
}
