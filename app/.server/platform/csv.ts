import { stringify } from "csv-stringify/sync";

/** A byte-order mark, so spreadsheet programs read accents as UTF-8. */
const BOM = "\uFEFF";

/**
 * What a spreadsheet may run as a formula when a cell starts with it: =, +, -,
 * @ (and their full-width forms, which some spreadsheets read the same), tab
 * and carriage return, also after spaces or a quote (a cell a lenient reader
 * starts inside our quoted field begins with the quote it keeps).
 */
const FORMULA_START = /^[\s"]*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
/**
 * Where a spreadsheet may start a cell inside our text: after a line break (a
 * lone CR or LF starts a row in some programs even inside quotes), and after a
 * semicolon (the separator Excel uses in German and French locales, which
 * splits our comma-separated cells there).
 */
const CELL_BREAKS = /(\r\n|\r|\n|;)/;

/** Every place a cell could start with a formula gets an apostrophe first, so it shows as text. */
export function neutralise(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  const parts = text.split(CELL_BREAKS);
  const safe = parts.map((part, index) => (index % 2 === 0 && FORMULA_START.test(part) ? `'${part}` : part)).join("");
  // A value that starts with a line break starts with a formula character itself.
  return FORMULA_START.test(safe) ? `'${safe}` : safe;
}

/**
 * Every field quoted, so no separator or line break inside a value ends its
 * cell in a program that reads the file strictly, and neutralised for those
 * that do not.
 */
export function toCsv(rows: unknown[][]): string {
  return (
    BOM +
    stringify(
      rows.map((row) => row.map(neutralise)),
      { record_delimiter: "\r\n", quoted: true, quoted_empty: true },
    )
  );
}

/** YYYY-MM-DD of a date, for file names. */
export function isoDay(date = new Date()): string {
  return date.toISOString().slice(0, 10);
}
