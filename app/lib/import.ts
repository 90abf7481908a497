/** The card fields a CSV column can fill, in the order the screens list them. */
export const IMPORT_FIELDS = [
  { key: "firstName", label: "First name" },
  { key: "lastName", label: "Last name" },
  { key: "email", label: "Email" },
  { key: "title", label: "Job title" },
  { key: "phone", label: "Phone" },
  { key: "brand", label: "Company / brand" },
  { key: "linkedinUrl", label: "LinkedIn URL" },
  { key: "username", label: "Username" },
  { key: "bio", label: "Bio" },
] as const;

export type ImportField = (typeof IMPORT_FIELDS)[number]["key"];

/**
 * The fields an existing card may take from a file, when the administrator
 * ticks them. The email is what rows are matched by; a username is a card's
 * address (printed on QR codes) and stays as it is.
 */
export const OVERWRITABLE_FIELDS = ["firstName", "lastName", "title", "phone", "brand", "linkedinUrl", "bio"] as const;

export type OverwritableField = (typeof OVERWRITABLE_FIELDS)[number];

export function importFieldLabel(key: string): string {
  return IMPORT_FIELDS.find((field) => field.key === key)?.label ?? key;
}

/** "The file is larger than 10 MB": stated on the upload form, enforced while the body is read. */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
export const IMPORT_TOO_LARGE =
  "The file is larger than 10 MB. Split it into smaller files and import them one after another.";
