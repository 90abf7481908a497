import { CARD_FIELDS, type CardFieldKey } from "./card-fields";

/** The card fields a CSV column can fill, in the order the screens list them. */
export const IMPORT_FIELDS = [
  { key: "firstName", label: "First name" },
  { key: "lastName", label: "Last name" },
  { key: "email", label: CARD_FIELDS.email.label },
  { key: "title", label: CARD_FIELDS.title.label },
  { key: "department", label: CARD_FIELDS.department.label },
  { key: "office", label: CARD_FIELDS.office.label },
  { key: "phone", label: CARD_FIELDS.phone.label },
  { key: "brand", label: "Company / brand" },
  { key: "linkedinUrl", label: CARD_FIELDS.linkedinUrl.label },
  { key: "links", label: "Website and other links" },
  { key: "username", label: "Username" },
  { key: "manager", label: "Manager" },
  { key: "pronouns", label: CARD_FIELDS.pronouns.label },
  { key: "languages", label: CARD_FIELDS.languages.label },
  { key: "bio", label: CARD_FIELDS.bio.label },
] as const satisfies readonly {
  key: CardFieldKey | "firstName" | "lastName" | "brand" | "username" | "manager";
  label: string;
}[];

export type ImportField = (typeof IMPORT_FIELDS)[number]["key"];

/**
 * The fields an existing card may take from a file, when the administrator
 * ticks them. The email is what rows are matched by; a username is a card's
 * address (printed on QR codes) and stays as it is.
 */
export const OVERWRITABLE_FIELDS = IMPORT_FIELDS.map((field) => field.key).filter(
  (key): key is Exclude<ImportField, "email" | "username"> => key !== "email" && key !== "username",
);

export type OverwritableField = Exclude<ImportField, "email" | "username">;

/**
 * The fields whose values group people, so that one place written two ways ("Tokyo",
 * "Tokyo Office") can be merged before importing.
 */
export const MERGEABLE_FIELDS = ["office", "department", "brand"] as const satisfies readonly ImportField[];
export type MergeableField = (typeof MERGEABLE_FIELDS)[number];
/** For each mergeable field, a value as the file writes it (trimmed) and what it is imported as. */
export type MergedValues = Partial<Record<MergeableField, Record<string, string>>>;
/** The most values of one field listed for merging: more than that are not a handful of places. */
export const MAX_LISTED_VALUES = 60;

export function importFieldLabel(key: string): string {
  return IMPORT_FIELDS.find((field) => field.key === key)?.label ?? key;
}

/** "The file is larger than 10 MB": stated on the upload form, enforced while the body is read. */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
export const IMPORT_TOO_LARGE =
  "The file is larger than 10 MB. Split it into smaller files and import them one after another.";
