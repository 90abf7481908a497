import { describe, expect, it } from "vitest";
import type { ValidationError } from "../platform/errors";
import { MAX_COLUMNS, MAX_ROWS, readCsv } from "./csv-file";
import { guessMapping } from "./mapping";

const BOM = "\uFEFF";
const bytes = (text: string) => new TextEncoder().encode(text);

/** What Excel writes as "CSV UTF-8" in a European locale: a BOM, semicolons, CRLF. */
const EXCEL = `${BOM}Vorname;Nachname;E-Mail;Position;Firma;Telefon\r\nŁukasz;Wiśniewski;lukasz@example.org;"Leiter; Vertrieb";Northwind;+48 22 123 45 67\r\n王;芳;wang.fang@example.org;工程师;Northwind;\r\nΕλένη;Παπαδοπούλου;eleni@example.org;;;\r\n`;

/** What Google Sheets downloads: commas, LF, line breaks and quotes inside quoted values, no BOM. */
const SHEETS = `First name,Last name,Email address,Bio,LinkedIn\nZoë,Laurent,zoe@example.org,"Line one\nLine two with ""quotes""",https://www.linkedin.com/in/zoe\n,,,,\nAda,Lovelace,ada@example.org,,\n`;

describe("reading a CSV file as spreadsheets export it", () => {
  it("reads Excel's UTF-8 with a BOM, semicolons and CRLF, keeping non-Latin names and quoted semicolons", async () => {
    const sheet = await readCsv(bytes(EXCEL));
    expect(sheet.headers).toEqual(["Vorname", "Nachname", "E-Mail", "Position", "Firma", "Telefon"]);
    expect(sheet.rows).toEqual([
      {
        rowNumber: 2,
        cells: ["Łukasz", "Wiśniewski", "lukasz@example.org", "Leiter; Vertrieb", "Northwind", "+48 22 123 45 67"],
      },
      { rowNumber: 3, cells: ["王", "芳", "wang.fang@example.org", "工程师", "Northwind", ""] },
      { rowNumber: 4, cells: ["Ελένη", "Παπαδοπούλου", "eleni@example.org", "", "", ""] },
    ]);
  });

  it("reads Google Sheets' commas and LF with line breaks and doubled quotes inside a value, skipping empty rows but keeping row numbers", async () => {
    const sheet = await readCsv(bytes(SHEETS));
    expect(sheet.rows.map((row) => row.rowNumber)).toEqual([2, 4]);
    expect(sheet.rows[0]?.cells[3]).toBe('Line one\nLine two with "quotes"');
    expect(sheet.rows[1]?.cells.slice(0, 3)).toEqual(["Ada", "Lovelace", "ada@example.org"]);
  });

  it("refuses what is not a UTF-8 CSV file with a message that says what to do", async () => {
    const latin1 = new Uint8Array([0x4e, 0x61, 0x6d, 0x65, 0x0a, 0x5a, 0x6f, 0xeb, 0x0a]);
    const messageOf = async (input: Uint8Array) => {
      try {
        await readCsv(input);
      } catch (error) {
        return (error as ValidationError).fieldErrors.file?.[0];
      }
      return "read";
    };
    expect(await messageOf(latin1)).toMatch(/not UTF-8 text.*CSV UTF-8/);
    expect(await messageOf(bytes('First name,Email\n"Ada,ada@example.org\n'))).toMatch(/never closed/);
    expect(await messageOf(bytes(""))).toMatch(/The file is empty/);
    expect(await messageOf(bytes("First name,Email\n"))).toMatch(/no people in it/);
  });
});

describe("files too large in shape to be a sheet of people", () => {
  const refusal = async (text: string) => {
    try {
      await readCsv(bytes(text));
    } catch (error) {
      return (error as ValidationError).fieldErrors.file?.[0];
    }
    return "read";
  };

  it("refuses 100,000 columns in a 100 KB file at once, saying how many it takes", async () => {
    const started = performance.now();
    const header = Array.from({ length: 100_000 }, () => "a").join(",");
    expect(await refusal(`${header}\n${header}\n`)).toBe(
      `The file has 100,000 columns; an import reads at most ${MAX_COLUMNS}. Keep the columns about people (names, email, title, phone…) and try again.`,
    );
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("keeps only the header's columns of a row that has more", async () => {
    const extra = Array.from({ length: 50_000 }, () => "x").join(",");
    const sheet = await readCsv(bytes(`First name,Last name,Email\nAda,Lovelace,ada@example.org,${extra}\n`));
    expect(sheet.rows).toEqual([{ rowNumber: 2, cells: ["Ada", "Lovelace", "ada@example.org"] }]);
  });

  it("refuses a row longer than any person's details", async () => {
    expect(await refusal(`First name,Bio\nAda,"${"x".repeat(70_000)}"\n`)).toMatch(
      /^A row near line 2 is longer than 64 KB/,
    );
  });

  it("takes the most rows allowed and refuses one more", { timeout: 30_000 }, async () => {
    const sheet = (rows: number) => `Email\n${"a@example.org\n".repeat(rows)}`;
    expect((await readCsv(bytes(sheet(MAX_ROWS)))).rows).toHaveLength(MAX_ROWS);
    expect(await refusal(sheet(MAX_ROWS + 1))).toBe(
      "The file has more than 100,000 rows; an import takes at most 100,000 people at a time. Split it into smaller files.",
    );
  });
});

// Reading 10 MB is seconds of work on a busy machine: it gets room, its turns are what is checked.
describe("reading a large file", { timeout: 30_000 }, () => {
  it("reads 10 MB in slices, leaving the server its turns between them, and keeps every character whole", async () => {
    const people = Array.from(
      { length: 60_000 },
      (_, index) =>
        `Zoë${index},Çağdaş 🙂${index},person${index}@example.org,"Leiter; Vertrieb, Nord",+44 20 7946 ${index}`,
    );
    const file = bytes(`${BOM}First name,Last name,Email,Title,Phone\n${people.join("\n")}\n`);
    expect(file.length).toBeGreaterThan(5 * 1024 * 1024);
    // Something else the server has to do meanwhile: it gets a turn again and again while the file is read.
    let turns = 0;
    let waiting = true;
    const other = () => {
      turns++;
      if (waiting) setImmediate(other);
    };
    setImmediate(other);
    const sheet = await readCsv(file);
    waiting = false;
    expect(turns).toBeGreaterThan(50);
    expect(sheet.rows).toHaveLength(60_000);
    // Characters of several bytes that a slice boundary cut in two come back whole, in every row.
    for (const [index, row] of sheet.rows.entries()) {
      expect(row.cells[1]).toBe(`Çağdaş 🙂${index}`);
    }
  });
});

describe("recognising column headers", () => {
  it("maps English, spreadsheet and other languages' headers without regard to case, spaces or punctuation", () => {
    expect(
      guessMapping([
        "Given name",
        "SURNAME",
        "E-mail",
        "Job title",
        "Mobile",
        "Company",
        "LinkedIn",
        "Username",
        "Bio",
        "Notes",
      ]),
    ).toEqual(["firstName", "lastName", "email", "title", "phone", "brand", "linkedinUrl", "username", "bio", ""]);
    expect(guessMapping(["Vorname", "Nachname", "E-Mail-Adresse", "Position", "Firma", "Telefon"])).toEqual([
      "firstName",
      "lastName",
      "email",
      "title",
      "brand",
      "phone",
    ]);
    expect(guessMapping(["Prénom", "Nom", "Courriel", "Téléphone", "Société"])).toEqual([
      "firstName",
      "lastName",
      "email",
      "phone",
      "brand",
    ]);
    expect(guessMapping(["first_name", "Last Name", "Email Address", "Brand", "Phone"])).toEqual([
      "firstName",
      "lastName",
      "email",
      "brand",
      "phone",
    ]);
  });

  it("gives each field to its first column only", () => {
    expect(guessMapping(["Phone", "Mobile", "Email", "E-mail"])).toEqual(["phone", "", "email", ""]);
  });
});
