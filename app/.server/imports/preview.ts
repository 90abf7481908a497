import { importFieldLabel, MAX_LISTED_VALUES, MERGEABLE_FIELDS, type MergeableField } from "~/lib/import";
import type { Actor } from "../platform/actor";
import { db } from "../platform/db/client";
import { getImport, importScope, settingsOf, sheetRows } from "./imports";
import {
  describePlan,
  type ImportSettings,
  loadPlanContext,
  managerNotes,
  planRow,
  type RowPlan,
  rowValues,
  type SheetRow,
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

export type ListedValues = {
  field: MergeableField;
  label: string;
  /** Each value as the file writes it, how many rows have it, and what it is imported as. */
  values: { value: string; rows: number; importedAs: string }[];
  /** Values beyond the listed ones. */
  more: number;
};

/**
 * The values of the office, department and brand columns, for merging: a field is listed
 * when its column is mapped (the brand's only when rows say their brand) and holds two
 * values or more, alphabetically, so that "Tokyo" and "Tokyo Office" sit together.
 */
function listedValues(rows: SheetRow[], settings: ImportSettings): ListedValues[] {
  const listed: ListedValues[] = [];
  for (const field of MERGEABLE_FIELDS) {
    const index = settings.mapping.indexOf(field);
    if (index < 0 || (field === "brand" && settings.brandId !== null)) continue;
    const counts = new Map<string, number>();
    for (const row of rows) {
      const value = rowValues(row.cells, settings.mapping)[field]?.trim() ?? "";
      if (value) counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    if (counts.size < 2) continue;
    const sorted = [...counts].sort(([a], [b]) => a.localeCompare(b, "en", { sensitivity: "base" }));
    const merges = settings.merges?.[field] ?? {};
    listed.push({
      field,
      label: importFieldLabel(field),
      values: sorted
        .slice(0, MAX_LISTED_VALUES)
        .map(([value, count]) => ({ value, rows: count, importedAs: merges[value] ?? value })),
      more: Math.max(0, sorted.length - MAX_LISTED_VALUES),
    });
  }
  return listed;
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
