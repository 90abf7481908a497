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

/** What a field's value is, which decides how every output writes it (a link, a `tel:` address, a paragraph). */
type FieldKind = "text" | "paragraph" | "email" | "phone" | "url" | "links";

/**
 * Where a field appears on the card's own page: beside the name, under it
 * (the role), in the contact list, or as the paragraph about the person.
 */
type PageSection = "name" | "role" | "contact" | "about";

type FieldDefinition = {
  label: string;
  kind: FieldKind;
  /** The visibility a new card starts with unless an administrator chose another. */
  visibility: Visibility;
  /**
   * The visibilities a member may choose. Job title, department and office
   * say who someone is at work: a colleague always sees them.
   */
  choices: readonly Visibility[];
  /** How the audit log names a change of it. */
  auditLabel: string;
  page: PageSection;
  /** Whether the directory's tile of a person shows it. */
  tile: boolean;
  /** Whether the directory's search finds a card by it (the database's search text, migration 0014). */
  searchable: boolean;
  /** Whether the directory narrows by its values. */
  facet: boolean;
  /**
   * Whether a brand's template may set its value for every card of the brand
   * (the brand's office, its main phone, its website); a person's own details
   * (their name for themselves, their address, their title) stay theirs.
   */
  brandValue: boolean;
};

const ALL = VISIBILITIES;
const AT_WORK = ["public", "colleagues"] as const;

/**
 * The card fields, in the order the form and every output list them. The
 * server's outputs of each (contact file, wallet passes, signature, import,
 * SCIM, single sign-on) are in app/.server/profiles/card-fields.ts; the
 * recipe for a new field is in docs/architecture.md.
 */
export const CARD_FIELDS = {
  title: {
    label: "Job title",
    kind: "text",
    visibility: "public",
    choices: AT_WORK,
    auditLabel: "job title",
    page: "role",
    tile: true,
    searchable: true,
    facet: false,
    brandValue: false,
  },
  department: {
    label: "Department",
    kind: "text",
    visibility: "public",
    choices: AT_WORK,
    auditLabel: "department",
    page: "role",
    tile: true,
    searchable: true,
    facet: true,
    brandValue: true,
  },
  office: {
    label: "Office",
    kind: "text",
    visibility: "public",
    choices: AT_WORK,
    auditLabel: "office",
    page: "contact",
    tile: true,
    searchable: true,
    facet: true,
    brandValue: true,
  },
  pronouns: {
    label: "Pronouns",
    kind: "text",
    visibility: "public",
    choices: ALL,
    auditLabel: "pronouns",
    page: "name",
    tile: true,
    searchable: false,
    facet: false,
    brandValue: false,
  },
  email: {
    label: "Email",
    kind: "email",
    visibility: "public",
    choices: ALL,
    auditLabel: "email",
    page: "contact",
    tile: true,
    searchable: true,
    facet: false,
    brandValue: false,
  },
  phone: {
    label: "Phone",
    kind: "phone",
    visibility: "public",
    choices: ALL,
    auditLabel: "phone",
    page: "contact",
    tile: true,
    searchable: false,
    facet: false,
    brandValue: true,
  },
  languages: {
    label: "Languages",
    kind: "text",
    visibility: "public",
    choices: ALL,
    auditLabel: "languages",
    page: "contact",
    tile: false,
    searchable: false,
    facet: false,
    brandValue: false,
  },
  linkedinUrl: {
    label: "LinkedIn URL",
    kind: "url",
    visibility: "public",
    choices: ALL,
    auditLabel: "LinkedIn",
    page: "contact",
    tile: true,
    searchable: false,
    facet: false,
    brandValue: false,
  },
  links: {
    label: "Links",
    kind: "links",
    visibility: "public",
    choices: ALL,
    auditLabel: "links",
    page: "contact",
    tile: false,
    searchable: false,
    facet: false,
    brandValue: true,
  },
  bio: {
    label: "Bio",
    kind: "paragraph",
    visibility: "public",
    choices: ALL,
    auditLabel: "bio",
    page: "about",
    tile: true,
    searchable: true,
    facet: false,
    brandValue: false,
  },
} as const satisfies Record<string, FieldDefinition>;

export type CardFieldKey = keyof typeof CARD_FIELDS;
export const CARD_FIELD_KEYS = Object.keys(CARD_FIELDS) as CardFieldKey[];

/** The fields the directory's tile of a person shows (`tile` in their definitions). */
export type TileField = {
  [Key in CardFieldKey]: (typeof CARD_FIELDS)[Key]["tile"] extends true ? Key : never;
}[CardFieldKey];

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

/** What a brand's template decides of one field, on top of the site's policy. */
export type BrandFieldRule = {
  /** The visibility the brand's new cards start with; null follows the site's. */
  visibility: Visibility | null;
  /** Whether the brand's members cannot change the field: its value and who sees it come from the brand. */
  locked: boolean;
  /** The value every card of the brand holds (a locked field whose `brandValue` allows it); null leaves each card's. */
  value: string | CardLink[] | null;
};

/** A brand's card template: the fields it decides, each by its name (docs/decisions/045-brand-templates.md). */
export type BrandTemplate = Partial<Record<CardFieldKey, BrandFieldRule>>;

/** The names a brand's template form gives one field's rule. */
export function templateFieldNames(key: CardFieldKey) {
  return {
    visibility: `template.${key}.visibility`,
    locked: `template.${key}.locked`,
    value: `template.${key}.value`,
  };
}

/**
 * The policies a brand's cards follow: a field the site locked stays as the
 * site decided; any other follows the brand's rule where it has one.
 */
export function brandPolicies(site: FieldPolicies, template: BrandTemplate): FieldPolicies {
  return Object.fromEntries(
    CARD_FIELD_KEYS.map((key) => {
      const rule = template[key];
      const policy = site[key];
      if (policy.locked || !rule) return [key, policy];
      return [key, { visibility: rule.visibility ?? policy.visibility, locked: rule.locked }];
    }),
  ) as FieldPolicies;
}

/** The fields a brand's template may set the value of (`brandValue` in their definitions). */
export type BrandValueField = {
  [Key in CardFieldKey]: (typeof CARD_FIELDS)[Key]["brandValue"] extends true ? Key : never;
}[CardFieldKey];

/** The values a brand sets on every card of it, field by field. */
export function brandValues(template: BrandTemplate): Partial<Pick<CardDetails, BrandValueField>> {
  const values: Record<string, unknown> = {};
  for (const key of CARD_FIELD_KEYS) {
    const rule = template[key];
    if (rule?.locked && CARD_FIELDS[key].brandValue && rule.value !== null) values[key] = rule.value;
  }
  return values as Partial<Pick<CardDetails, BrandValueField>>;
}

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

/** The value a field holds: its links, or one text. */
type FieldValue<Key extends CardFieldKey> = (typeof CARD_FIELDS)[Key]["kind"] extends "links"
  ? CardLink[]
  : string | null;

/** A card's details, each field by its name; a field left out is not shown. */
export type CardDetails = { [Key in CardFieldKey]: FieldValue<Key> };

/** A field's value as the texts an output writes: the links' addresses, or the text when there is one. */
export function fieldTexts(value: string | readonly CardLink[] | null | undefined): string[] {
  if (Array.isArray(value)) return value.map((link: CardLink) => link.url);
  const text = typeof value === "string" ? value.trim() : "";
  return text ? [text] : [];
}

/** The card's details alone, every field of the registry, out of a record that holds more. */
export function detailsOf(card: CardDetails): CardDetails {
  return Object.fromEntries(CARD_FIELD_KEYS.map((key) => [key, card[key]])) as CardDetails;
}
