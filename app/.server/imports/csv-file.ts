import { type Options, parse as parser } from "csv-parse";
import { CsvError, parse } from "csv-parse/sync";
import { ValidationError } from "../platform/errors";

export type CsvSheet = {
  headers: string[];
  /** Rows with at least one value, numbered as a spreadsheet shows them (the header is row 1). */
  rows: { rowNumber: number; cells: string[] }[];
};

const BOM = "\uFEFF";

/**
 * What a file may hold, checked while it is read and before anything is kept
 * or shown: a sheet of people has a few dozen columns and rows of a few hundred
 * characters. A file of a strange shape is refused before it is read whole: one
 * of very many columns made an enormous mapping page and held the server
 * (docs/decisions/020-bulk-import.md has the figures).
 */
export const MAX_COLUMNS = 200;
export const MAX_ROWS = 100_000;
const MAX_ROW_CHARACTERS = 64 * 1024;
/** The header is read from this much of the file's start: a header of MAX_COLUMNS fits many times over. */
const HEADER_PREFIX = 1024 * 1024;
/**
 * The file is read in slices of this many bytes, with a turn for everything
 * else the server does between two: a 10 MB file held it for a second and a
 * half when read at once.
 */
const SLICE_BYTES = 64 * 1024;

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

/**
 * Parses `bytes` a slice at a time, yielding to the event loop between
 * slices; stops reading once it has one record more than a file may hold.
 * Slices are bytes: the parser joins a character split between two.
 */
async function parseInSlices(bytes: Buffer, options: Options): Promise<string[][]> {
  const records: string[][] = [];
  const reading = parser(options);
  let failure: unknown = null;
  const ended = new Promise<void>((resolve) => {
    reading.on("end", resolve);
    reading.on("error", (error) => {
      failure ??= error;
      resolve();
    });
  });
  reading.on("readable", () => {
    for (let record = reading.read(); record !== null; record = reading.read()) records.push(record as string[]);
  });
  for (let offset = 0; offset < bytes.length; offset += SLICE_BYTES) {
    if (failure || records.length > MAX_ROWS + 1) break;
    reading.write(bytes.subarray(offset, offset + SLICE_BYTES));
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (!failure && records.length <= MAX_ROWS + 1) {
    reading.end();
    // Its last record, or its error (a quote never closed), comes when it has seen the end.
    await ended;
  } else {
    reading.destroy();
  }
  if (failure) throw failure;
  return records.slice(0, MAX_ROWS + 2);
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
export async function readCsv(bytes: Uint8Array): Promise<CsvSheet> {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw fileError(
      'The file is not UTF-8 text. In Excel choose "CSV UTF-8 (Comma delimited)" when saving; Google Sheets and Numbers export UTF-8 already.',
    );
  }
  const start = text.startsWith(BOM) ? 3 : 0;
  if (start) text = text.slice(1);
  if (text.includes("\u0000"))
    throw fileError("The file is not a CSV text file. Export the sheet as CSV and try again.");
  const options = {
    delimiter: detectDelimiter(text),
    relax_column_count: true,
    skip_empty_lines: false,
    max_record_size: MAX_ROW_CHARACTERS,
  };
  let records: string[][];
  try {
    // The header first: a file with too many columns is refused before its rows are read.
    const header = text.slice(0, HEADER_PREFIX);
    const columns = ((parse(header, { ...options, max_record_size: undefined, to: 1 }) as string[][])[0] ?? []).length;
    if (columns > MAX_COLUMNS) {
      throw fileError(
        `The file has ${columns.toLocaleString("en")} columns; an import reads at most ${MAX_COLUMNS}. Keep the columns about people (names, email, title, phone…) and try again.`,
      );
    }
    // A row longer than the header keeps only the header's columns; one row past the limit is enough to know.
    records = await parseInSlices(Buffer.from(bytes.buffer, bytes.byteOffset + start, bytes.byteLength - start), {
      ...options,
      on_record: (record: string[]) => record.slice(0, Math.max(columns, 1)),
    });
    if (records.length > MAX_ROWS + 1) {
      throw fileError(
        `The file has more than ${MAX_ROWS.toLocaleString("en")} rows; an import takes at most ${MAX_ROWS.toLocaleString("en")} people at a time. Split it into smaller files.`,
      );
    }
  } catch (error) {
    if (error instanceof CsvError && error.code === "CSV_MAX_RECORD_SIZE") {
      const line = (error as CsvError & { lines?: number }).lines;
      throw fileError(
        `A row${line ? ` near line ${line}` : ""} is longer than ${MAX_ROW_CHARACTERS / 1024} KB, which no person's details need. Check that the file is a sheet of people exported as CSV.`,
      );
    }
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
