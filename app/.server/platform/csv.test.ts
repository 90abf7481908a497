import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { hasPython, PYTHON } from "../../../tests/support/checkers";
import { neutralise, toCsv } from "./csv";

/** Reads a CSV file as Python's csv module does, with the given separator: every cell. */
function cellsAsRead(text: string, delimiter: "," | ";"): string[] {
  const script = [
    "import csv, io, json, sys",
    "text = sys.stdin.read()",
    `rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=${JSON.stringify(delimiter)}))`,
    "print(json.dumps([cell for row in rows for cell in row]))",
  ].join("\n");
  const result = spawnSync(PYTHON, ["-c", script], { input: text.replace(/^\uFEFF/, ""), encoding: "utf8" });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout) as string[];
}

/** Cells and lines a spreadsheet could run as a formula. */
function live(cells: string[]): string[] {
  return cells
    .flatMap((cell) => cell.split(/\r\n|\r|\n/))
    .filter((line) => /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(line));
}

const HOSTILE = [
  '=HYPERLINK("http://evil.example","x")',
  "+1+1",
  "-2+3",
  "@SUM(1)",
  "\t=1",
  "\r=1",
  "Max;=1+1",
  "Lena\n=cmd|' /C calc'!A0",
  "Lena\r=1+1",
  "Lena\r\n@SUM(A1)",
  "a;b;+c",
  "\uFF1D1+1",
  "Zoë ; -5",
  'a;"=1+1',
  'a\n "=1+1',
  "a; =1+1",
];

describe.runIf(hasPython())("CSV files a spreadsheet opens", () => {
  it("keep every cell and every line inside a cell from running as a formula, read with , or ;", () => {
    const text = toCsv([["Name", "Bio"], ...HOSTILE.map((value) => [value, `${value} again`])]);
    expect(live(cellsAsRead(text, ","))).toEqual([]);
    expect(live(cellsAsRead(text, ";"))).toEqual([]);
  });

  it("read back with , give every value as written, an apostrophe before each formula start", () => {
    const values = ["Zoë Laurent", "Acme, Inc.", 'She said "hi"', "", 42, null, "line one\nline two"];
    const cells = cellsAsRead(toCsv([values]), ",");
    expect(cells).toEqual(["Zoë Laurent", "Acme, Inc.", 'She said "hi"', "", "42", "", "line one\nline two"]);
    expect(cellsAsRead(toCsv([HOSTILE]), ",")).toEqual(HOSTILE.map(neutralise));
    expect(neutralise("Max;=1+1")).toBe("Max;'=1+1");
    expect(neutralise("Lena\n=1")).toBe("Lena\n'=1");
  });
});
