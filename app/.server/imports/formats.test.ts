import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ImportField } from "~/lib/import";
import { readCsv } from "./csv-file";
import { disabledColumnOf, formatOf, guessMapping } from "./mapping";
import { rowValues } from "./plan";

/**
 * Files as the tools companies keep their people in export them, with each
 * tool's exact header row (tests/fixtures/exports): the format is named, each
 * column goes to the field that tool means by it, and nothing else.
 */
async function exported(name: string) {
  const sheet = await readCsv(fs.readFileSync(path.join("tests/fixtures/exports", name)));
  const mapping = guessMapping(sheet.headers);
  const mapped = Object.fromEntries(
    mapping.flatMap((field, index) => (field ? [[field, sheet.headers[index]]] : [])),
  ) as Partial<Record<ImportField, string>>;
  const values = sheet.rows.map((row) => rowValues(row.cells, mapping));
  return { sheet, mapping, mapped, values, format: formatOf(sheet.headers)?.name ?? null };
}

describe("recognising the exports of the tools companies use", () => {
  it("reads Google Contacts' 56 columns: organisation, job title and department, and the first of several values", async () => {
    const file = await exported("google-contacts.csv");
    expect(file.sheet.headers).toHaveLength(56);
    expect(file.format).toBe("a Google Contacts export");
    expect(file.mapped).toEqual({
      firstName: "Given Name",
      lastName: "Family Name",
      email: "E-mail 1 - Value",
      phone: "Phone 1 - Value",
      brand: "Organization 1 - Name",
      title: "Organization 1 - Title",
      department: "Organization 1 - Department",
      office: "Organization 1 - Location",
      links: "Website 1 - Value",
      languages: "Language",
    });
    expect(file.values[0]).toMatchObject({
      email: "ines.duarte@northwind.example",
      phone: "+351 912 345 678",
      title: "Head of Design",
      links: "https://ines.example\nhttps://github.com/inesd",
    });
  });

  it("reads Google Contacts' current export", async () => {
    const file = await exported("google-contacts-current.csv");
    expect(file.format).toBe("a Google Contacts export");
    expect(file.mapped).toMatchObject({
      firstName: "First Name",
      lastName: "Last Name",
      email: "E-mail 1 - Value",
      brand: "Organization Name",
      title: "Organization Title",
      department: "Organization Department",
      phone: "Phone 1 - Value",
    });
  });

  it.each(["outlook-classic.csv", "outlook-new.csv"])(
    "reads %s: the job title from Job Title, not the honorific, and the mobile over the business phone",
    async (name) => {
      const file = await exported(name);
      expect(file.format).toBe("an Outlook export");
      expect(file.mapped).toMatchObject({
        firstName: "First Name",
        lastName: "Last Name",
        email: "E-mail Address",
        title: "Job Title",
        phone: "Mobile Phone",
        brand: "Company",
        department: "Department",
        office: "Office Location",
      });
      expect(file.values[0]?.title).not.toMatch(/^(Dr|Mr|Ms)\.$/);
    },
  );

  it("reads Microsoft Entra ID's user download, and leaves out people whose account is disabled", async () => {
    const file = await exported("entra-users.csv");
    expect(file.format).toBe("a Microsoft Entra ID export");
    expect(file.mapped).toEqual({
      firstName: "givenName",
      lastName: "surname",
      email: "mail",
      title: "jobTitle",
      department: "department",
      office: "officeLocation",
      phone: "mobilePhone",
      brand: "companyName",
    });
    expect(disabledColumnOf(file.sheet.headers)).toEqual({ index: 9, values: ["false", "no", "0"] });
  });

  it("reads Okta's user file and Google Workspace's user download, with their manager and status columns", async () => {
    const okta = await exported("okta-users.csv");
    expect(okta.format).toBe("an Okta export");
    expect(okta.mapped).toMatchObject({ email: "email", title: "title", phone: "mobilePhone", brand: "organization" });
    const workspace = await exported("google-workspace-users.csv");
    expect(workspace.format).toBe("a Google Workspace export");
    expect(workspace.mapped).toMatchObject({
      firstName: "First Name [Required]",
      lastName: "Last Name [Required]",
      email: "Email Address [Required]",
      title: "Employee Title",
      phone: "Mobile Phone",
      manager: "Manager Email",
      department: "Department",
      office: "Building ID",
    });
    expect(disabledColumnOf(workspace.sheet.headers)?.values).toContain("suspended");
  });

  it("names no format for a file of its own, and prefers the more specific of two columns for one field", async () => {
    const headers = ["Title", "First name", "Last name", "Email", "Job title", "Phone"];
    expect(formatOf(headers)).toBeNull();
    expect(guessMapping(headers)).toEqual(["", "firstName", "lastName", "email", "title", "phone"]);
  });
});
