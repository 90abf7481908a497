import { IMPORT_FIELDS, type ImportField } from "~/lib/import";
import { CARD_FIELD_RULES } from "../profiles/card-fields";

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

const BY_KEY = new Map<string, ImportField>(
  Object.entries(SYNONYMS).flatMap(([field, names]) =>
    names.map((name) => [headerKey(name), field as ImportField] as const),
  ),
);

/** For each column, the field its header names, or "" — each field taken by its first column only. */
export function guessMapping(headers: string[]): (ImportField | "")[] {
  const taken = new Set<ImportField>();
  return headers.map((header) => {
    const field = BY_KEY.get(headerKey(header));
    if (!field || taken.has(field)) return "";
    taken.add(field);
    return field;
  });
}

export function isImportField(value: string): value is ImportField {
  return IMPORT_FIELDS.some((field) => field.key === value);
}
