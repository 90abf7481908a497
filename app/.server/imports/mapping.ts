import { IMPORT_FIELDS, type ImportField } from "~/lib/import";

/**
 * Header names each field is recognised by, compared without letter case,
 * accents, spaces or punctuation: English as Excel, Google Sheets, Numbers and
 * common CRMs write them, and the usual forms in a few other languages.
 */
const SYNONYMS: Record<ImportField, string[]> = {
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
  email: [
    "email",
    "emailaddress",
    "mail",
    "emailadress",
    "email1value",
    "workemail",
    "businessemail",
    "emailadresse",
    "courriel",
    "adresseemail",
    "adressemail",
    "correo",
    "correoelectronico",
    "indirizzoemail",
    "emailadres",
    "adresemail",
    "sähköposti",
    "почта",
    "электроннаяпочта",
    "电子邮件",
    "邮箱",
  ],
  title: [
    "jobtitle",
    "title",
    "position",
    "role",
    "jobrole",
    "function",
    "designation",
    "berufsbezeichnung",
    "funktion",
    "titre",
    "poste",
    "fonction",
    "cargo",
    "puesto",
    "titolo",
    "ruolo",
    "functie",
    "stanowisko",
    "titel",
    "tehtävänimike",
    "должность",
    "职位",
  ],
  phone: [
    "phone",
    "mobile",
    "mobilephone",
    "mobilenumber",
    "phonenumber",
    "cell",
    "cellphone",
    "telephone",
    "tel",
    "workphone",
    "businessphone",
    "phone1value",
    "telefon",
    "telefonnummer",
    "handy",
    "mobil",
    "mobiltelefon",
    "portable",
    "téléphone",
    "telefono",
    "movil",
    "cellulare",
    "telefoon",
    "mobiel",
    "telefone",
    "celular",
    "puhelin",
    "телефон",
    "电话",
    "手机",
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
  linkedinUrl: ["linkedin", "linkedinurl", "linkedinprofile", "linkedinprofileurl", "linkedinlink"],
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
  bio: [
    "bio",
    "biography",
    "about",
    "aboutme",
    "description",
    "summary",
    "biografie",
    "biographie",
    "biografia",
    "übermich",
    "apropos",
    "sobremi",
    "beschrijving",
    "о себе",
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
