import { CsvError, parse } from "csv-parse/sync";
import { ValidationError } from "../errors";

export type CsvSheet = {
  headers: string[];
  /** Rows with at least one value, numbered as a spreadsheet shows them (the header is row 1). */
  rows: { rowNumber: number; cells: string[] }[];
};

const BOM = "\uFEFF";

/**
 * The delimiter of a file: the one of comma, semicolon and tab that occurs
 * most often outside quotes in its first line. Excel writes semicolons where
 * the comma is the decimal separator (most of Europe); Google Sheets and
 * Numbers write commas.
 */
function detectDelimiter(text: string): "," | ";" | "\t" {
  const counts = { ",": 0, ";": 0, "\t": 0 };
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === "\n" || char === "\r")) break;
    else if (!quoted && char in counts) counts[char as keyof typeof counts]++;
  }
  if (counts[";"] > counts[","] && counts[";"] >= counts["\t"]) return ";";
  if (counts["\t"] > counts[","]) return "\t";
  return ",";
}

function fileError(message: string): ValidationError {
  return new ValidationError({ file: [message] });
}

/**
 * Reads an uploaded CSV file: UTF-8 with or without a byte-order mark, comma,
 * semicolon or tab, CRLF or LF line ends, quoted values with line breaks and
 * doubled quotes. Throws a ValidationError on the `file` field that says what
 * to change.
 */
export function readCsv(bytes: Uint8Array): CsvSheet {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw fileError(
      'The file is not UTF-8 text. In Excel choose "CSV UTF-8 (Comma delimited)" when saving; Google Sheets and Numbers export UTF-8 already.',
    );
  }
  if (text.startsWith(BOM)) text = text.slice(1);
  if (text.includes("\u0000"))
    throw fileError("The file is not a CSV text file. Export the sheet as CSV and try again.");
  let records: string[][];
  try {
    records = parse(text, {
      delimiter: detectDelimiter(text),
      relax_column_count: true,
      skip_empty_lines: false,
    }) as string[][];
  } catch (error) {
    if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines;
      const where = line ? ` near line ${line}` : "";
      const why =
        error.code === "CSV_QUOTE_NOT_CLOSED"
          ? "a quoted value is never closed"
          : error.code === "CSV_INVALID_CLOSING_QUOTE" || error.code === "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE"
            ? "a quote mark inside a value is not doubled"
            : "it is not valid CSV";
      throw fileError(`The file could not be read${where}: ${why}. Export the sheet as CSV again and try again.`);
    }
    throw error;
  }
  const [header, ...body] = records;
  const headers = (header ?? []).map((cell) => cell.trim());
  if (headers.every((cell) => cell === "")) {
    throw fileError("The file is empty. Its first row should name the columns, such as First name, Last name, Email.");
  }
  const rows = body
    .map((cells, index) => ({ rowNumber: index + 2, cells }))
    .filter((row) => row.cells.some((cell) => cell.trim() !== ""));
  if (rows.length === 0) {
    throw fileError("The file has a header row but no people in it. Add one row per person below the header.");
  }
  return { headers, rows };
}
