import type { ImportField } from "~/lib/import";

/**
 * The export formats of the tools companies keep their people in, by the
 * exact header rows those tools write (docs/decisions/020-bulk-import.md).
 * A file whose header holds a format's signature is read by that format's
 * own table first: in an Outlook export "Title" is the honorific ("Dr."), not
 * the job title, and "Mobile Phone" is the number to take, not the "Business
 * Phone" most rows leave empty. Columns a format does not name are matched by
 * the general synonyms (imports/mapping.ts).
 *
 * Headers are compared as `headerKey` makes them: lower case, accents off,
 * letters and digits only ("E-mail 1 - Value" is "email1value").
 */
export type ExportFormat = {
  /** As the mapping screen says it: "Looks like {name}". */
  name: string;
  /** Header keys that must all be present. */
  signature: string[];
  /** What each of its columns fills; "" leaves a column unmatched, whatever its name suggests. */
  columns: Record<string, ImportField | "">;
  /** The column that says whether an account is enabled, and the values that say it is not. */
  disabled?: { column: string; values: string[] };
};

const EXPORT_FORMATS: ExportFormat[] = [
  {
    // Google Contacts, "Google CSV" (56 columns): names and organisation as numbered groups.
    name: "a Google Contacts export",
    signature: ["givenname", "familyname", "email1value", "organization1name"],
    columns: {
      givenname: "firstName",
      familyname: "lastName",
      email1value: "email",
      phone1value: "phone",
      organization1name: "brand",
      organization1title: "title",
      organization1department: "department",
      organization1location: "office",
      website1value: "links",
      name: "",
      location: "",
      occupation: "",
      notes: "",
    },
  },
  {
    // Google Contacts' current export: "Organization Name", "Organization Title", labelled groups.
    name: "a Google Contacts export",
    signature: ["firstname", "lastname", "email1value", "organizationname"],
    columns: {
      firstname: "firstName",
      lastname: "lastName",
      email1value: "email",
      phone1value: "phone",
      organizationname: "brand",
      organizationtitle: "title",
      organizationdepartment: "department",
      website1value: "links",
      notes: "",
    },
  },
  {
    // Outlook (classic) for Windows: "Title" is the honorific; the job is "Job Title".
    name: "an Outlook export",
    signature: ["title", "firstname", "lastname", "jobtitle", "emailaddress", "businessphone", "mobilephone"],
    columns: {
      title: "",
      firstname: "firstName",
      lastname: "lastName",
      company: "brand",
      department: "department",
      jobtitle: "title",
      officelocation: "office",
      mobilephone: "phone",
      businessphone: "",
      businessphone2: "",
      primaryphone: "",
      companymainphone: "",
      homephone: "",
      emailaddress: "email",
      webpage: "links",
      managersname: "",
      location: "",
      notes: "",
    },
  },
  {
    // Microsoft Entra ID, Users → Download users.
    name: "a Microsoft Entra ID export",
    signature: ["userprincipalname", "displayname", "givenname", "surname", "accountenabled"],
    columns: {
      userprincipalname: "",
      displayname: "",
      givenname: "firstName",
      surname: "lastName",
      mail: "email",
      jobtitle: "title",
      department: "department",
      officelocation: "office",
      companyname: "brand",
      mobilephone: "phone",
      telephonenumber: "",
      city: "",
      usagelocation: "",
      accountenabled: "",
    },
    disabled: { column: "accountenabled", values: ["false", "no", "0"] },
  },
  {
    // Okta's user CSV (the import template and the people export it matches).
    name: "an Okta export",
    signature: ["login", "firstname", "lastname", "email", "mobilephone", "primaryphone"],
    columns: {
      login: "",
      firstname: "firstName",
      lastname: "lastName",
      email: "email",
      title: "title",
      department: "department",
      organization: "brand",
      mobilephone: "phone",
      primaryphone: "",
      manager: "",
      managerid: "",
      displayname: "",
      status: "",
    },
    disabled: { column: "status", values: ["suspended", "deprovisioned", "locked_out", "lockedout"] },
  },
  {
    // Google Workspace, Admin console → Users → Download users.
    name: "a Google Workspace export",
    signature: ["firstnamerequired", "lastnamerequired", "emailaddressrequired"],
    columns: {
      firstnamerequired: "firstName",
      lastnamerequired: "lastName",
      emailaddressrequired: "email",
      // "/Aurora Foods/Sales": the brand its deepest part names (imports/plan.ts); "/" is no brand.
      orgunitpathrequired: "brand",
      employeetitle: "title",
      department: "department",
      manageremail: "manager",
      mobilephone: "phone",
      workphone: "",
      homephone: "",
      workaddress: "",
      buildingid: "office",
      employeeid: "",
    },
    disabled: { column: "statusreadonly", values: ["suspended", "archived"] },
  },
];

/** The format a file's header row is in: the one whose signature it holds, the most specific first. */
export function detectFormat(keys: string[]): ExportFormat | null {
  const present = new Set(keys);
  const matches = EXPORT_FORMATS.filter((format) => format.signature.every((key) => present.has(key)));
  return matches.sort((a, b) => b.signature.length - a.signature.length)[0] ?? null;
}
