import { stringify } from "csv-stringify/sync";

/** A byte-order mark, so spreadsheet programs read accents as UTF-8. */
const BOM = "\uFEFF";

/**
 * A cell a spreadsheet would run as a formula (=, +, -, @, tab or carriage
 * return first) is prefixed with an apostrophe, so it shows as text.
 */
function neutralise(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

export function toCsv(rows: unknown[][]): string {
  return (
    BOM +
    stringify(
      rows.map((row) => row.map(neutralise)),
      { record_delimiter: "\r\n" },
    )
  );
}

export function csvResponse(body: string, fileName: string): Response {
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "no-store",
    },
  });
}

/** YYYY-MM-DD of a date, for file names. */
export function isoDay(date = new Date()): string {
  return date.toISOString().slice(0, 10);
}
