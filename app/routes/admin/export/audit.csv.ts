import { auditEntriesForExport, entriesWithin, parseAuditQuery } from "~/.server/audit/list";
import { requireAction, requireAdministration } from "~/.server/http/authz";
import { csvResponse, parseQuery } from "~/.server/http/responses";
import { isoDay, toCsv } from "~/.server/platform/csv";
import { describeChange } from "~/lib/audit";
import type { Route } from "./+types/audit.csv";

/** The audit log as CSV: the entries the screen's filters select, newest first. */
export async function loader({ request }: Route.LoaderArgs) {
  const viewer = requireAction(await requireAdministration(request), "read:audit");
  const within = entriesWithin(viewer);
  const query = parseQuery(() => parseAuditQuery(new URL(request.url)));
  if (query.brand !== null) requireAction(viewer, "read:audit", { brandId: query.brand });
  const rows = await auditEntriesForExport(within, query);
  const body = toCsv([
    ["When (UTC)", "Administrator", "Administrator email", "Action", "Target kind", "Target id", "Target", "Changes"],
    ...rows.map((row) => [
      row.createdAt.toISOString(),
      row.actorName,
      row.actorEmail,
      row.action,
      row.targetKind,
      row.targetId ?? "",
      row.targetLabel,
      Object.entries(row.changes)
        .map(([field, change]) => describeChange(field, change))
        .join("\n"),
    ]),
  ]);
  return csvResponse(body, `namecard-audit-${isoDay()}.csv`);
}
