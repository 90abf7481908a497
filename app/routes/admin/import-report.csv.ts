import { requireAdmin, requirePermission } from "~/.server/authz";
import { csvResponse } from "~/.server/csv";
import { NotFoundError } from "~/.server/errors";
import { reportCsv } from "~/.server/imports/files";
import { notFound } from "~/.server/responses";
import type { Route } from "./+types/import-report.csv";

/** Every row of an import that was not imported (or, before it runs, will not be), with its reason. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const viewer = requirePermission(await requireAdmin(request), "create:profile:any");
  try {
    const report = await reportCsv(viewer, params.id);
    return csvResponse(report.body, report.fileName);
  } catch (error) {
    if (error instanceof NotFoundError) notFound("Import not found");
    throw error;
  }
}
