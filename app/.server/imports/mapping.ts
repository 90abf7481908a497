import { IMPORT_FIELDS, type ImportField } from "~/lib/import";
import { CARD_FIELD_RULES } from "../profiles/card-fields";
import { detectFormat, type ExportFormat } from "./formats";

/**
 * Header names each field is recognised by, compared without letter case,
 * accents, spaces or punctuation: English as Excel, Google Sheets, Numbers and
 * common CRMs write them, and the usual forms in a few other languages.
 */
const NAMES_AND_PLACES: Record<Exclude<ImportField, keyof typeof CARD_FIELD_RULES>, string[]> = {
  firstName: [
    "firstname",
    "givenname",
    "forename",
    "first",
    "fname",
    "vorname",
    "prenom",
    "nombre",
    "nome",
    "primonome",
    "voornaam",
    "imie",
    "fornavn",
    "fornamn",
    "etunimi",
    "имя",
    "όνομα",
    "名",
    "名字",
  ],
  lastName: [
    "lastname",
    "surname",
    "familyname",
    "last",
    "lname",
    "nachname",
    "familienname",
    "nom",
    "nomdefamille",
    "apellido",
    "apellidos",
    "cognome",
    "sobrenome",
    "achternaam",
    "nazwisko",
    "efternavn",
    "efternamn",
    "etternavn",
    "sukunimi",
    "фамилия",
    "επώνυμο",
    "姓",
    "姓氏",
  ],
  brand: [
    "company",
    "brand",
    "companybrand",
    "companyname",
    "organization",
    "organisation",
    "organizationname",
    "employer",
    "firma",
    "unternehmen",
    "marke",
    "entreprise",
    "société",
    "marque",
    "empresa",
    "marca",
    "azienda",
    "bedrijf",
    "merk",
    "yritys",
    "компания",
    "公司",
  ],
  // A manager is named by their username or email address, like on the edit form.
  manager: [
    "manager",
    "manageremail",
    "managerusername",
    "reportsto",
    "supervisor",
    "supervisoremail",
    "linemanager",
    "vorgesetzter",
    "vorgesetzte",
    "responsable",
    "manageur",
    "gerente",
    "jefe",
    "responsabile",
    "leidinggevende",
    "przelozony",
    "chef",
  ],
  username: [
    "username",
    "user",
    "handle",
    "login",
    "benutzername",
    "nomdutilisateur",
    "nombredeusuario",
    "gebruikersnaam",
  ],
};

/** A header as compared: lower case, accents off, only letters and digits. */
function headerKey(header: string): string {
  return header
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, "");
}

/** A card field's headers come with its definition (app/.server/profiles/card-fields.ts). */
const SYNONYMS: Record<ImportField, string[]> = {
  ...NAMES_AND_PLACES,
  ...(Object.fromEntries(
    Object.entries(CARD_FIELD_RULES).map(([field, rules]) => [field, rules.importHeaders]),
  ) as Record<keyof typeof CARD_FIELD_RULES, string[]>),
};

/** Each header key's field, and its rank among that field's names: the first names are the most specific. */
const BY_KEY = new Map<string, { field: ImportField; rank: number }>(
  Object.entries(SYNONYMS).flatMap(([field, names]) =>
    names.map((name, rank) => [headerKey(name), { field: field as ImportField, rank }] as const),
  ),
);

/** The export format of a file's header row, if it is one of a known tool's (imports/formats.ts). */
export function formatOf(headers: string[]): ExportFormat | null {
  return detectFormat(headers.map(headerKey));
}

/**
 * For each column, the field its header names, or "". A file of a known
 * format is read by its own table first. When two columns name one field
 * ("Title" and "Job Title"), the more specific name wins, then the first.
 */
export function guessMapping(headers: string[]): (ImportField | "")[] {
  const format = formatOf(headers);
  const candidates = headers.map((header, column) => {
    const key = headerKey(header);
    if (format && Object.hasOwn(format.columns, key)) {
      const field = format.columns[key];
      return field ? { field, rank: -1, column } : null;
    }
    const known = BY_KEY.get(key);
    return known ? { ...known, column } : null;
  });
  const best = new Map<ImportField, { rank: number; column: number }>();
  for (const candidate of candidates) {
    if (!candidate) continue;
    const held = best.get(candidate.field);
    if (!held || candidate.rank < held.rank) best.set(candidate.field, candidate);
  }
  return headers.map((_, column) => {
    const field = candidates[column]?.field;
    return field && best.get(field)?.column === column ? field : "";
  });
}

/**
 * The column that says whether a person's account is enabled, in a known
 * format that has one, and the values that say it is not: such rows are not imported.
 */
export function disabledColumnOf(headers: string[]): { index: number; values: string[] } | null {
  const disabled = formatOf(headers)?.disabled;
  if (!disabled) return null;
  const index = headers.findIndex((header) => headerKey(header) === disabled.column);
  return index < 0 ? null : { index, values: disabled.values };
}

export function isImportField(value: string): value is ImportField {
  return IMPORT_FIELDS.some((field) => field.key === value);
}
