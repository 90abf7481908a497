import { IMPORT_FIELDS } from "~/lib/import";
import type { Actor } from "../platform/actor";
import { toCsv } from "../platform/csv";
import { db } from "../platform/db/client";
import { getImport, importScope, rowOutcomes, settingsOf, sheetRows } from "./imports";
import { loadPlanContext, planRow } from "./plan";

/** The file to start from: one column per card field, headed as the import recognises them. */
export function templateCsv(): string {
  return toCsv([IMPORT_FIELDS.map((field) => field.label)]);
}

/**
 * Every row that was not imported and why: the row's number, the reason and
 * its values under the file's own headers. Before the import runs, the rows
 * the preview says will fail. Cells are neutralised against formulas by `toCsv`.
 */
export async function reportCsv(actor: Actor, importId: string): Promise<{ body: string; fileName: string }> {
  const record = await getImport(actor, importId);
  const failures: { rowNumber: number; reason: string; cells: string[] }[] = [];
  if (record.status === "draft") {
    const rows = await sheetRows(importId);
    const settings = settingsOf(record);
    // Planned as the preview plans it: a brand administrator's rows outside their brands are failures too.
    const context = await loadPlanContext(db, rows, rows, settings.mapping, importScope(actor));
    for (const row of rows) {
      const plan = planRow(row, settings, context);
      if (plan.kind === "error") failures.push({ rowNumber: row.rowNumber, reason: plan.reason, cells: row.cells });
    }
  } else {
    const { rows } = await rowOutcomes(importId, { errorsOnly: true });
    for (const row of rows) failures.push({ rowNumber: row.rowNumber, reason: row.detail ?? "", cells: row.cells });
  }
  const base =
    record.fileName
      .replace(/\.csv$/i, "")
      .replace(/[^A-Za-z0-9._-]+/g, "-")
      .slice(0, 80) || "import";
  return {
    body: toCsv([
      ["Row", "Reason", ...record.headers],
      ...failures.map((failure) => [failure.rowNumber, failure.reason, ...failure.cells]),
    ]),
    fileName: `${base}-not-imported.csv`,
  };
}
