// The accounts the browser tests sign in with. The e2e server seeds them before
// it starts (confirmed addresses, a known password, a card each), so a test
// signs in through the `login` fixture instead of signing up. Only the tests
// of signing up and claiming a card sign up for real.
//
// An account that a test changes (its card, its password, its session) is that
// test's alone; the shared ones are only read.
export const PASSWORD = "e2e password 123";

export const PEOPLE = {
  /** The administrator (ADMIN_EMAILS in tests/e2e/serve.js) every administrator test signs in as. */
  admin: { email: "admin@example.com", firstName: "Ada", lastName: "Admin" },
  /** A member who only reads. */
  member: { email: "mia.member@example.org", firstName: "Mia", lastName: "Member" },
  /** Edits their own card. */
  owner: { email: "olga.owner@example.org", firstName: "Olga", lastName: "Owner" },
  /** Visits another member's card once, to be counted. */
  visitor: { email: "vic.visitor@example.org", firstName: "Vic", lastName: "Visitor" },
  /** Loses their card to an administrator. */
  orphan: { email: "orla.orphan@example.org", firstName: "Orla", lastName: "Orphan" },
  /** Fills in every detail of their card and chooses who sees each. */
  detailed: { email: "dora.details@example.org", firstName: "Dora", lastName: "Details" },
  /** Resets their password. */
  forgetful: { email: "fay.forgetful@example.org", firstName: "Fay", lastName: "Forgetful" },
  /** Is made an administrator, and a member again. */
  deputy: { email: "dan.deputy@example.org", firstName: "Dan", lastName: "Deputy" },
  /** Is made the administrator of one brand (Onyx Partners), and runs it. */
  lead: { email: "lena.lead@example.org", firstName: "Lena", lastName: "Lead" },
} as const;

export type PersonName = keyof typeof PEOPLE;

/** Who can join in the browser tests: the administrator's domain and the one its people are at. */
export const COMPANY_DOMAINS = ["example.com", "example.org"] as const;

/** Someone who joined by themselves from another domain: outside the rule, listed for deactivation. */
export const OUTSIDER = {
  email: "oscar.outsider@elsewhere.example",
  firstName: "Oscar",
  lastName: "Outsider",
} as const;
export type Person = (typeof PEOPLE)[PersonName];

/**
 * Unclaimed cards of brands whose colours are hard to read on: a near-black
 * brand (invisible on dark surfaces) and an amber one (white text fails on it).
 */
export const BRAND_CARDS = {
  onyx: {
    brand: { name: "Onyx Partners", primaryColor: "#111111", secondaryColor: "#1f2937", website: null },
    person: {
      firstName: "Nora",
      lastName: "Onyx",
      username: "nora.onyx",
      email: "nora.onyx@example.org",
      title: "Partner",
      phone: "+1 555 0190",
    },
  },
  saffron: {
    brand: { name: "Saffron Studio", primaryColor: "#fbbf24", secondaryColor: "#f59e0b", website: null },
    person: {
      firstName: "Sunny",
      lastName: "Saffron",
      username: "sunny.saffron",
      email: "sunny.saffron@example.org",
      title: "Art Director",
      phone: "+1 555 0191",
    },
  },
} as const;

/** An unclaimed card whose username an administrator changes (the old links must keep working). */
export const RENAMED_CARD = {
  firstName: "Rhea",
  lastName: "Renamed",
  username: "rhea.renamed",
  email: "rhea.renamed@example.org",
  title: "Field Engineer",
} as const;

/**
 * An unclaimed card whose name, email and addresses are far wider than a phone,
 * of a brand with a website (where a visitor's Back leads).
 */
export const LONG_CARD = {
  brand: {
    name: "Longitude Maritime Consolidated Holdings",
    primaryColor: "#0f766e",
    secondaryColor: "#14b8a6",
    website: "https://longitude-maritime.example/",
  },
  person: {
    firstName: "Maximiliana-Bartholomea",
    lastName: "Featherstonehaugh-Wolfeschlegelstein",
    username: "maximiliana.featherstonehaugh",
    email: "maximiliana.featherstonehaugh-wolfeschlegelstein@longitude-maritime-holdings.example",
    title: "Senior Vice President of International Strategic Partnerships and Enterprise Customer Success",
    phone: "+49 30 1234 5678 ext. 9999",
    linkedinUrl: "https://www.linkedin.com/in/maximiliana-bartholomea-featherstonehaugh-wolfeschlegelstein-0123456789/",
  },
} as const;

/** An unclaimed card of no brand: with no company website either, a visitor has no Back. */
export const PLAIN_CARD = {
  firstName: "Pia",
  lastName: "Plain",
  username: "pia.plain",
  email: "pia.plain@example.org",
  title: "Buyer",
} as const;
