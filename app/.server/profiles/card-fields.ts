import { z } from "zod";
import {
  type CardFieldKey,
  type CardLink,
  isLinkKind,
  LINK_KIND_KEYS,
  LINK_KINDS,
  type LinkKind,
  MAX_LINKS,
} from "~/lib/card-fields";
import { profiles } from "../db/schema";
import { completeUrl, EmailSchema, OptionalTextSchema, OptionalUrlSchema, PhoneSchema } from "../validation";

/**
 * The server's side of each card field (app/lib/card-fields.ts has the
 * label and visibility): how a form's value is checked, the contact-file
 * property it becomes, the column headers an import recognises it by
 * (compared without letter case, accents, spaces or punctuation, in the
 * languages the import knows), its SCIM attribute (RFC 7643 §4.1, and the
 * enterprise extension's department), and the identity provider's claims it is
 * filled from. Keyed by the same names, so a field
 * added there fails the type check here until each of these is given.
 */
type FieldRules = {
  schema: z.ZodType;
  /** The vCard 3.0 property it is written as (app/.server/profiles/vcard.ts), or null where 3.0 has none. */
  vcard: string | null;
  importHeaders: string[];
  scim: string | null;
  /**
   * The identity provider's claims a sign-in fills it from, first found first
   * (OpenID Connect's standard claims, then names providers use for the rest).
   */
  claims: string[];
};

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
  },
  department: {
    schema: OptionalTextSchema(100, "Department"),
    vcard: "ORG",
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
  },
  office: {
    schema: OptionalTextSchema(100, "Office"),
    vcard: "ADR;TYPE=WORK",
    importHeaders: [
      "office",
      "officelocation",
      "location",
      "worklocation",
      "site",
      "city",
      "organization1location",
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
    claims: [],
  },
  pronouns: {
    schema: OptionalTextSchema(40, "Pronouns"),
    vcard: null,
    importHeaders: ["pronouns", "pronoun", "pronomen", "pronoms", "pronombres", "pronomi", "voornaamwoorden"],
    scim: null,
    claims: [],
  },
  email: {
    schema: EmailSchema,
    vcard: "EMAIL;TYPE=INTERNET",
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
  },
  phone: {
    schema: PhoneSchema,
    vcard: "TEL;TYPE=CELL",
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
  },
  languages: {
    schema: OptionalTextSchema(200, "Languages"),
    vcard: null,
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
  },
  linkedinUrl: {
    schema: OptionalUrlSchema("LinkedIn URL", "https://www.linkedin.com/in/your-name"),
    vcard: "URL",
    importHeaders: ["linkedin", "linkedinurl", "linkedinprofile", "linkedinprofileurl", "linkedinlink"],
    scim: null,
    claims: [],
  },
  links: {
    schema: LinksSchema,
    vcard: "URL",
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
  },
  bio: {
    schema: OptionalTextSchema(1000, "Bio", { multiline: true }),
    vcard: "NOTE",
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
