import type { Actor } from "../platform/actor";
import { db } from "../platform/db/client";
import { getImport, importScope, settingsOf, sheetRows } from "./imports";
import {
  describePlan,
  listedValues,
  loadPlanContext,
  managerNotes,
  planRow,
  type RowPlan,
  rowValues,
  type ShownField,
  shownFields,
} from "./plan";

export const PREVIEW_PAGE_ROWS = 50;

type PreviewRow = {
  rowNumber: number;
  name: string;
  email: string;
  /** Every other mapped field the row fills, so a wrong column ("Job title: Dr.") shows before cards are made. */
  fields: ShownField[];
  outcome: RowPlan["kind"];
  detail: string;
};

/**
 * What importing a draft would do to each row, with the mapping and options
 * saved on it: counts for the whole file and one page of rows.
 */
export async function previewImport(actor: Actor, importId: string, options: { page: number; errorsOnly: boolean }) {
  const record = await getImport(actor, importId);
  const settings = settingsOf(record);
  const rows = await sheetRows(importId);
  const context = await loadPlanContext(db, rows, rows, settings.mapping, importScope(actor));
  const managers = await managerNotes(db, rows, settings.mapping);
  const counts = { create: 0, update: 0, unchanged: 0, skip: 0, error: 0 };
  const listed: PreviewRow[] = [];
  for (const row of rows) {
    const plan = planRow(row, settings, context);
    counts[plan.kind]++;
    if (options.errorsOnly && plan.kind !== "error") continue;
    const values = rowValues(row.cells, settings.mapping, settings.merges);
    listed.push({
      rowNumber: row.rowNumber,
      name: [values.firstName, values.lastName]
        .map((part) => part?.trim() ?? "")
        .filter(Boolean)
        .join(" "),
      email: values.email?.trim() ?? "",
      fields: shownFields(values),
      outcome: plan.kind,
      detail: withManager(describePlan(plan), plan.kind, managers.get(row.rowNumber), settings.overwrite),
    });
  }
  const pageCount = Math.max(1, Math.ceil(listed.length / PREVIEW_PAGE_ROWS));
  const page = Math.min(options.page, pageCount);
  return {
    values: listedValues(rows, settings),
    counts,
    matching: listed.length,
    page,
    pageCount,
    rows: listed.slice((page - 1) * PREVIEW_PAGE_ROWS, page * PREVIEW_PAGE_ROWS),
  };
}

/** A row's detail with what happens to its manager: a new card always takes it, an existing one when ticked. */
function withManager(
  detail: string,
  kind: RowPlan["kind"],
  note: string | undefined,
  overwrite: readonly string[],
): string {
  if (!note || kind === "error" || kind === "skip" || (kind !== "create" && !overwrite.includes("manager")))
    return detail;
  return detail ? `${detail}; ${note.charAt(0).toLowerCase()}${note.slice(1)}` : note;
}
