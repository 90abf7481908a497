import { z } from "zod";
import {
  CARD_FIELD_KEYS,
  CARD_FIELDS,
  type CardFieldKey,
  type CardLink,
  isLinkKind,
  LINK_KIND_KEYS,
  LINK_KINDS,
  type LinkKind,
  MAX_LINKS,
  type TileField,
} from "~/lib/card-fields";
import { profiles } from "../platform/db/schema";
import { completeUrl, EmailSchema, OptionalTextSchema, OptionalUrlSchema, PhoneSchema } from "../platform/validation";

/**
 * The server's side of each card field (app/lib/card-fields.ts has the
 * label, visibility and place on the page): how a form's value is checked,
 * and how each output of the server writes it. Every output iterates this
 * table, and a field added there fails the type check here until each output
 * is decided, if only as null (docs/architecture.md has the recipe).
 */
type FieldRules = {
  schema: z.ZodType;
  /** The vCard 3.0 property it is written as (app/.server/profiles/vcard.ts), or null where 3.0 has none. */
  vcard: VCardProperty | null;
  /** Where the e-mail signature shows it (app/.server/profiles/signature.ts): the role line, the contacts, or as a link. */
  signature: { place: "role" } | { place: "contact" } | { place: "web"; label: string } | null;
  /** Its field on the Apple Wallet pass (app/.server/wallet/apple.ts); the key names it across updates. */
  applePass: { section: "secondaryFields" | "auxiliaryFields" | "backFields"; key: string; label: string } | null;
  /** Its place on the Google Wallet pass (app/.server/wallet/google.ts). */
  googlePass: { place: "subheader" } | { place: "details"; id: string; header: string } | null;
  /**
   * The column headers an import recognises it by (compared without letter
   * case, accents, spaces or punctuation, in the languages the import knows).
   */
  importHeaders: string[];
  /** Its SCIM attribute (RFC 7643 §4.1, and the enterprise extension's department). */
  scim: string | null;
  /**
   * The identity provider's claims a sign-in fills it from, first found first
   * (OpenID Connect's standard claims, then names providers use for the rest).
   */
  claims: string[];
  /** The SAML attributes a sign-in fills it from (app/.server/sso/saml.ts), read as its first claim. */
  saml: SamlAttribute | null;
};

/** The contact-file properties a field can be written as. */
export type VCardProperty =
  | "TITLE"
  | "ORG"
  | "ADR;TYPE=WORK"
  | "EMAIL;TYPE=INTERNET"
  | "TEL;TYPE=CELL"
  | "URL"
  | "NOTE";

/**
 * One SAML attribute as providers name it: plain names (matched against an
 * attribute's Name or FriendlyName), its LDAP OIDs and its claim URIs.
 */
export type SamlAttribute = { names: string[]; oids?: string[]; uris?: string[] };

/** Hosts a link of each kind must be at (or under), so a "GitHub" link cannot lead to a look-alike site. */
const LINK_HOSTS: Partial<Record<LinkKind, string[]>> = {
  x: ["x.com", "twitter.com"],
  github: ["github.com"],
  instagram: ["instagram.com"],
  youtube: ["youtube.com", "youtu.be"],
  facebook: ["facebook.com", "fb.com"],
};

function atHost(url: URL, hosts: string[]) {
  const host = url.hostname.toLowerCase();
  return hosts.some((expected) => host === expected || host.endsWith(`.${expected}`));
}

/** One link as the form sends it; the kind must be one the form offers and the address `https` at the kind's site. */
const LinkSchema = z
  .object({
    kind: z.string().refine(isLinkKind, { message: "Choose what kind of link this is from the list" }),
    url: OptionalUrlSchema("Link", "https://www.example.com/your-page"),
  })
  .superRefine((link, context) => {
    if (link.url === null) return;
    const url = new URL(link.url);
    const kind = link.kind as LinkKind;
    if (url.protocol !== "https:") {
      context.addIssue({ code: "custom", path: ["url"], message: "Use an address that starts with https://" });
      return;
    }
    const hosts = LINK_HOSTS[kind];
    if (hosts && !atHost(url, hosts)) {
      context.addIssue({
        code: "custom",
        path: ["url"],
        message: `Use an address at ${hosts[0]} for a ${LINK_KINDS[kind]} link, or choose "${LINK_KINDS.other}"`,
      });
    }
  });

/** The links of a card: rows without an address are left out; at most MAX_LINKS. */
const LinksSchema = z
  .array(LinkSchema)
  .optional()
  .transform((links) =>
    (links ?? []).flatMap((link) => (link.url ? [{ kind: link.kind as LinkKind, url: link.url }] : [])),
  )
  .pipe(z.array(z.custom<CardLink>()).max(MAX_LINKS, `Add at most ${MAX_LINKS} links`));

/** The kind of link an address is, by its host: what an import's website column or SCIM's urls become. */
function linkKindOf(address: string): LinkKind {
  try {
    const url = new URL(address);
    for (const kind of LINK_KIND_KEYS) {
      const hosts = LINK_HOSTS[kind];
      if (hosts && atHost(url, hosts)) return kind;
    }
  } catch {}
  return "website";
}

export const CARD_FIELD_RULES = {
  title: {
    schema: OptionalTextSchema(100, "Job title"),
    vcard: "TITLE",
    signature: { place: "role" },
    applePass: { section: "secondaryFields", key: "title", label: "Title" },
    googlePass: { place: "subheader" },
    importHeaders: [
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
    scim: "title",
    claims: ["title", "job_title", "jobTitle"],
    saml: {
      names: ["title", "jobTitle", "job_title"],
      oids: ["2.5.4.12"],
      uris: ["http://schemas.xmlsoap.org/ws/2005/05/identity/claims/title"],
    },
  },
  department: {
    schema: OptionalTextSchema(100, "Department"),
    vcard: "ORG",
    signature: { place: "role" },
    applePass: { section: "auxiliaryFields", key: "department", label: "Department" },
    googlePass: { place: "details", id: "department", header: "Department" },
    importHeaders: [
      "department",
      "dept",
      "team",
      "division",
      "organization1department",
      "abteilung",
      "departement",
      "service",
      "departamento",
      "dipartimento",
      "reparto",
      "afdeling",
      "dział",
      "avdeling",
      "avdelning",
      "osasto",
      "отдел",
      "部门",
    ],
    scim: "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department",
    claims: ["department"],
    saml: {
      names: ["department", "ou", "organizationalUnitName"],
      oids: ["2.5.4.11"],
      uris: ["http://schemas.microsoft.com/ws/2008/06/identity/claims/department"],
    },
  },
  office: {
    schema: OptionalTextSchema(100, "Office"),
    vcard: "ADR;TYPE=WORK",
    signature: null,
    applePass: { section: "backFields", key: "office", label: "Office" },
    googlePass: null,
    importHeaders: [
      "office",
      "officelocation",
      "location",
      "worklocation",
      "site",
      "city",
      "organization1location",
      "physicaldeliveryofficename",
      "officename",
      "buildingid",
      "building",
      "büro",
      "standort",
      "bureau",
      "lieu",
      "oficina",
      "ubicacion",
      "ufficio",
      "sede",
      "kantoor",
      "locatie",
      "biuro",
      "kontor",
      "toimipiste",
      "офис",
      "办公室",
    ],
    scim: 'addresses[type eq "work"].formatted',
    claims: ["office_location", "officeLocation", "physicalDeliveryOfficeName", "office"],
    saml: { names: ["physicalDeliveryOfficeName", "officeLocation", "office"], oids: ["2.5.4.19"] },
  },
  pronouns: {
    schema: OptionalTextSchema(40, "Pronouns"),
    vcard: null,
    signature: null,
    applePass: null,
    googlePass: null,
    importHeaders: ["pronouns", "pronoun", "pronomen", "pronoms", "pronombres", "pronomi", "voornaamwoorden"],
    scim: null,
    claims: [],
    saml: null,
  },
  email: {
    schema: EmailSchema,
    vcard: "EMAIL;TYPE=INTERNET",
    signature: { place: "contact" },
    applePass: { section: "backFields", key: "email", label: "Email" },
    googlePass: { place: "details", id: "email", header: "Email" },
    importHeaders: [
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
    scim: 'emails[type eq "work"].value',
    claims: [],
    saml: null,
  },
  phone: {
    schema: PhoneSchema,
    vcard: "TEL;TYPE=CELL",
    signature: { place: "contact" },
    applePass: { section: "backFields", key: "phone", label: "Phone" },
    googlePass: { place: "details", id: "phone", header: "Phone" },
    importHeaders: [
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
    scim: 'phoneNumbers[type eq "work"].value',
    claims: ["phone_number"],
    saml: {
      names: ["telephoneNumber", "phone", "mobile"],
      oids: ["2.5.4.20", "0.9.2342.19200300.100.1.41"],
      uris: [
        "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/mobilephone",
        "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/otherphone",
      ],
    },
  },
  languages: {
    schema: OptionalTextSchema(200, "Languages"),
    vcard: null,
    signature: null,
    applePass: null,
    googlePass: null,
    importHeaders: [
      "languages",
      "language",
      "spokenlanguages",
      "sprachen",
      "langues",
      "idiomas",
      "lingue",
      "talen",
      "języki",
      "språk",
      "kielet",
      "языки",
      "语言",
    ],
    scim: null,
    claims: [],
    saml: null,
  },
  linkedinUrl: {
    schema: OptionalUrlSchema("LinkedIn URL", "https://www.linkedin.com/in/your-name"),
    vcard: "URL",
    signature: { place: "web", label: "LinkedIn" },
    applePass: { section: "backFields", key: "linkedin", label: "LinkedIn" },
    googlePass: null,
    importHeaders: ["linkedin", "linkedinurl", "linkedinprofile", "linkedinprofileurl", "linkedinlink"],
    scim: null,
    claims: [],
    saml: null,
  },
  links: {
    schema: LinksSchema,
    vcard: "URL",
    signature: { place: "web", label: "Link" },
    applePass: null,
    googlePass: null,
    importHeaders: [
      "website",
      "websites",
      "homepage",
      "webpage",
      "web",
      "url",
      "links",
      "webseite",
      "siteweb",
      "sitioweb",
      "sitoweb",
      "strona",
      "nettsted",
      "webbplats",
      "verkkosivu",
      "сайт",
      "网站",
    ],
    scim: "urls",
    claims: [],
    saml: null,
  },
  bio: {
    schema: OptionalTextSchema(1000, "Bio", { multiline: true }),
    vcard: "NOTE",
    signature: null,
    applePass: null,
    googlePass: null,
    importHeaders: [
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
    scim: null,
    claims: [],
    saml: null,
  },
} satisfies Record<CardFieldKey, FieldRules>;

/** A text cell of an import as links: each address in it (separated by spaces, commas or semicolons), its kind by its host. */
export function linksFromText(text: string): { kind: string; url: string }[] {
  return text
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map((typed) => {
      const url = completeUrl(typed);
      return { kind: linkKindOf(url), url };
    });
}

/**
 * Each field's column, under the field's own name, and the visibilities in
 * effect: what a query selects to show a card's details (through
 * `shownDetails`), so no query lists them by hand.
 */
export const CARD_DETAIL_COLUMNS = {
  title: profiles.title,
  department: profiles.department,
  office: profiles.office,
  pronouns: profiles.pronouns,
  email: profiles.email,
  phone: profiles.phone,
  languages: profiles.languages,
  linkedinUrl: profiles.linkedinUrl,
  links: profiles.links,
  bio: profiles.bio,
  fieldVisibility: profiles.fieldVisibility,
} satisfies Record<CardFieldKey | "fieldVisibility", unknown>;

/** The columns of the fields the directory's tile of a person shows (`tile` in their definitions). */
export const TILE_COLUMNS = Object.fromEntries(
  CARD_FIELD_KEYS.filter((key) => CARD_FIELDS[key].tile).map((key) => [key, CARD_DETAIL_COLUMNS[key]]),
) as Pick<typeof CARD_DETAIL_COLUMNS, TileField>;
