/**
 * The details a card carries beyond its identity, defined once. A card's
 * identity (name, username, photo, brand) is always shown to whoever has its
 * address; each detail below is shown according to its visibility. The
 * server's side of each field (validation, contact-file property, import
 * headers, SCIM attribute) is in app/.server/profiles/card-fields.ts, keyed by
 * the same names, so a field added here fails the type check until every
 * output knows it (docs/decisions/028-card-fields-and-visibility.md).
 */

/** Who sees a detail: anyone with the link, signed-in members, or only its owner (and administrators). */
export const VISIBILITIES = ["public", "colleagues", "private"] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export const VISIBILITY_LABELS: Record<Visibility, string> = {
  public: "Public",
  colleagues: "Colleagues",
  private: "Only me",
};

export const VISIBILITY_HINTS: Record<Visibility, string> = {
  public: "Anyone with the link",
  colleagues: "Signed-in members only",
  private: "You and administrators",
};

/** Who is looking at a card, as far as its details are concerned. */
export type Viewer = "visitor" | "colleague" | "owner" | "admin";

type FieldDefinition = {
  label: string;
  /** The visibility a new card starts with unless an administrator chose another. */
  visibility: Visibility;
  /**
   * The visibilities a member may choose. Job title, department and office
   * say who someone is at work: a colleague always sees them.
   */
  choices: readonly Visibility[];
  /** How the audit log names a change of it. */
  auditLabel: string;
};

const ALL = VISIBILITIES;
const AT_WORK = ["public", "colleagues"] as const;

export const CARD_FIELDS = {
  title: { label: "Job title", visibility: "public", choices: AT_WORK, auditLabel: "job title" },
  department: { label: "Department", visibility: "public", choices: AT_WORK, auditLabel: "department" },
  office: { label: "Office", visibility: "public", choices: AT_WORK, auditLabel: "office" },
  pronouns: { label: "Pronouns", visibility: "public", choices: ALL, auditLabel: "pronouns" },
  email: { label: "Email", visibility: "public", choices: ALL, auditLabel: "email" },
  phone: { label: "Phone", visibility: "public", choices: ALL, auditLabel: "phone" },
  languages: { label: "Languages", visibility: "public", choices: ALL, auditLabel: "languages" },
  linkedinUrl: { label: "LinkedIn URL", visibility: "public", choices: ALL, auditLabel: "LinkedIn" },
  links: { label: "Links", visibility: "public", choices: ALL, auditLabel: "links" },
  bio: { label: "Bio", visibility: "public", choices: ALL, auditLabel: "bio" },
} as const satisfies Record<string, FieldDefinition>;

export type CardFieldKey = keyof typeof CARD_FIELDS;
export const CARD_FIELD_KEYS = Object.keys(CARD_FIELDS) as CardFieldKey[];

export function isCardField(value: string): value is CardFieldKey {
  return Object.hasOwn(CARD_FIELDS, value);
}

/** Each field's visibility on one card. */
export type FieldVisibility = Record<CardFieldKey, Visibility>;

/** What an administrator decided for a field: the visibility new cards start with, and whether members may change it. */
type FieldPolicy = { visibility: Visibility; locked: boolean };
export type FieldPolicies = Record<CardFieldKey, FieldPolicy>;

export const DEFAULT_FIELD_POLICIES = Object.fromEntries(
  CARD_FIELD_KEYS.map((key) => [key, { visibility: CARD_FIELDS[key].visibility, locked: false }]),
) as FieldPolicies;

/** Whether `viewer` sees a detail shown to `visibility`. */
export function canSee(viewer: Viewer, visibility: Visibility): boolean {
  if (viewer === "owner" || viewer === "admin") return true;
  if (viewer === "colleague") return visibility !== "private";
  return visibility === "public";
}

/** A field's visibility that a member may choose: a stored one outside its choices becomes the nearest allowed. */
export function allowedVisibility(key: CardFieldKey, visibility: Visibility): Visibility {
  const choices: readonly Visibility[] = CARD_FIELDS[key].choices;
  return choices.includes(visibility) ? visibility : (choices.at(-1) ?? "public");
}

/** The kinds of link a card lists beyond LinkedIn, in the order the form offers them. */
export const LINK_KINDS = {
  website: "Website",
  x: "X",
  github: "GitHub",
  instagram: "Instagram",
  youtube: "YouTube",
  facebook: "Facebook",
  mastodon: "Mastodon",
  booking: "Book a meeting",
  other: "Link",
} as const;
export type LinkKind = keyof typeof LINK_KINDS;
export const LINK_KIND_KEYS = Object.keys(LINK_KINDS) as LinkKind[];
export type CardLink = { kind: LinkKind; url: string };
export const MAX_LINKS = 10;

export function isLinkKind(value: string): value is LinkKind {
  return Object.hasOwn(LINK_KINDS, value);
}
