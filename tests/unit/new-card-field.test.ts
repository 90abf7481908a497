import { describe, expect, it, vi } from "vitest";
import { guessMapping } from "~/.server/imports/mapping";
import { planRow } from "~/.server/imports/plan";
import { TILE_COLUMNS } from "~/.server/profiles/card-fields";
import { contactFileOf } from "~/.server/profiles/contact-file";
import { cardForViewer, getCardByUsername } from "~/.server/profiles/get-card";
import { ProfileFieldsSchema, profileFormInput } from "~/.server/profiles/schemas";
import { signatureOfCard } from "~/.server/profiles/signature";
import { applePassFields, googlePassDetails } from "~/.server/wallet/pass-fields";
import { CARD_FIELD_KEYS, type CardDetails, detailsOf } from "~/lib/card-fields";

/**
 * The recipe's promise (docs/architecture.md, "Recipe: a new card field"):
 * every output of a card reads the field registry, so a field is declared
 * once. Here a made-up field, the call sign, is nothing but an entry added to
 * CARD_FIELDS and CARD_FIELD_RULES before any module reads them, and the real
 * outputs are asked for a card that holds one. No database: the card is the
 * row `getCardByUsername` would read, and the company's policies and settings
 * are their defaults.
 */
const CALL_SIGN = vi.hoisted(() => ({
  key: "callSign",
  value: "Sentinelcallsign-7",
  field: {
    label: "Call sign",
    kind: "text",
    visibility: "public",
    choices: ["public", "colleagues", "private"],
    auditLabel: "call sign",
    page: "contact",
    tile: true,
    searchable: false,
    facet: false,
  },
}));

// The registry entry, added to the real registry in place, so what the module derives from it (its keys, the
// default policies, `detailsOf`) and every module that reads it later see the field.
vi.mock("~/lib/card-fields", async (importOriginal) => {
  const actual = await importOriginal<typeof import("~/lib/card-fields")>();
  Object.assign(actual.CARD_FIELDS, { [CALL_SIGN.key]: CALL_SIGN.field });
  actual.CARD_FIELD_KEYS.push(CALL_SIGN.key as never);
  Object.assign(actual.DEFAULT_FIELD_POLICIES, {
    [CALL_SIGN.key]: { visibility: CALL_SIGN.field.visibility, locked: false },
  });
  return { ...actual };
});

// The server's side of the entry: its form check and each output's declaration. The tile's column list was made
// from the registry when the module loaded; a field's column itself is the recipe's first step (the schema), which
// a registry entry cannot make, so the tile's list holds the field's name with no column behind it here.
vi.mock("~/.server/profiles/card-fields", async (importOriginal) => {
  const actual = await importOriginal<typeof import("~/.server/profiles/card-fields")>();
  const { OptionalTextSchema } = await import("~/.server/platform/validation");
  Object.assign(actual.CARD_FIELD_RULES, {
    [CALL_SIGN.key]: {
      schema: OptionalTextSchema(20, "Call sign"),
      vcard: "NOTE",
      signature: { place: "contact" },
      applePass: { section: "backFields", key: "callSign", label: "Call sign" },
      googlePass: { place: "details", id: "callSign", header: "Call sign" },
      importHeaders: ["callsign", "radiocallsign"],
      scim: "urn:example:params:scim:schemas:extension:radio:2.0:User:callSign",
      claims: ["call_sign"],
      saml: { names: ["callSign"] },
    },
  });
  return { ...actual };
});

// What would come from the database: the card's row, and the company's field policies and settings as they are
// with nothing stored (the registry's default visibility, the default company name and colours).
vi.mock("~/.server/profiles/get-card", async (importOriginal) => ({
  ...(await importOriginal<typeof import("~/.server/profiles/get-card")>()),
  getCardByUsername: vi.fn(),
}));
vi.mock("~/.server/profiles/visibility", async (importOriginal) => {
  const actual = await importOriginal<typeof import("~/.server/profiles/visibility")>();
  return { ...actual, getFieldPolicies: async () => actual.policiesFrom(null) };
});
vi.mock("~/.server/platform/site-settings", async () => {
  const { DEFAULT_SETTINGS } = await import("~/lib/settings");
  return { getSiteSettings: async () => ({ ...DEFAULT_SETTINGS }) };
});

type StoredCard = NonNullable<Awaited<ReturnType<typeof getCardByUsername>>>;

/** A stored card holding only a call sign, with `fieldVisibility` as stored (a field left out takes the company's default). */
function storedCard(fieldVisibility: Record<string, string>): StoredCard {
  return {
    id: "00000000-0000-4000-8000-000000000001",
    userId: "owner-user",
    firstName: "Ada",
    lastName: "Radio",
    username: "ada.radio",
    ...Object.fromEntries(CARD_FIELD_KEYS.map((key) => [key, key === "links" ? [] : null])),
    [CALL_SIGN.key]: CALL_SIGN.value,
    fieldVisibility,
    managerId: null,
    profilePhoto: null,
    viewCount: 0,
    createdAt: new Date("2025-01-01T00:00:00Z"),
    updatedAt: new Date("2025-01-01T00:00:00Z"),
    brand: null,
  } as unknown as StoredCard;
}

/** Every output of the card made for a visitor (someone with its link), as text. */
async function outputs(card: StoredCard) {
  vi.mocked(getCardByUsername).mockResolvedValue(card);
  const shown = await cardForViewer(card, null);
  return {
    "card page": JSON.stringify(detailsOf(shown as unknown as CardDetails)),
    "contact file": (await contactFileOf(shown)).replace(/\r\n /g, ""),
    signature: JSON.stringify(await signatureOfCard(card.username)),
    "Apple Wallet pass": JSON.stringify(applePassFields(shown)),
    "Google Wallet pass": JSON.stringify(googlePassDetails(shown)),
  };
}

describe("a card field declared only in the registry", () => {
  it("appears in the card page's details, the contact file, the signature and both wallet passes", async () => {
    expect(CARD_FIELD_KEYS).toContain(CALL_SIGN.key);
    const card = storedCard({});
    vi.mocked(getCardByUsername).mockResolvedValue(card);
    const shown = await cardForViewer(card, null);

    expect(detailsOf(shown as unknown as CardDetails)).toHaveProperty(CALL_SIGN.key, CALL_SIGN.value);
    expect(await contactFileOf(shown)).toContain(`\r\nNOTE:${CALL_SIGN.value}\r\n`);
    const signature = await signatureOfCard(card.username);
    expect(signature?.html).toContain(CALL_SIGN.value);
    expect(signature?.text.split("\n")).toContain(CALL_SIGN.value);
    expect(applePassFields(shown).backFields).toContainEqual({
      key: "callSign",
      label: "Call sign",
      value: CALL_SIGN.value,
    });
    expect(googlePassDetails(shown).modules).toContainEqual({
      id: "callSign",
      header: "Call sign",
      body: CALL_SIGN.value,
    });
  });

  it("is kept from a visitor in every output when its visibility is private, and shown to its owner", async () => {
    const card = storedCard({ [CALL_SIGN.key]: "private" });
    for (const [output, text] of Object.entries(await outputs(card))) {
      expect(text, `the call sign in the ${output}`).not.toContain(CALL_SIGN.value);
    }
    const colleague = await cardForViewer(card, { user: { id: "someone-else" }, role: "member" });
    expect(detailsOf(colleague as unknown as CardDetails)).toHaveProperty(CALL_SIGN.key, null);
    const owner = await cardForViewer(card, { user: { id: card.userId as string }, role: "member" });
    expect(detailsOf(owner as unknown as CardDetails)).toHaveProperty(CALL_SIGN.key, CALL_SIGN.value);
  });

  it("is selected for the directory's tile, and checked and given a visibility by the card's form", () => {
    // The directory's query selects the tile's columns; the tile itself (app/components/profile-card.tsx)
    // writes each field it shows by hand, so a new tile field is sent to the directory but not drawn there.
    expect(Object.keys(TILE_COLUMNS)).toContain(CALL_SIGN.key);

    const form = { firstName: "Ada", lastName: "Radio", username: "ada.radio", email: "ada@example.test" };
    const saved = ProfileFieldsSchema.safeParse(
      profileFormInput({
        ...form,
        [CALL_SIGN.key]: ` ${CALL_SIGN.value} `,
        [`visibility.${CALL_SIGN.key}`]: "private",
      }),
    );
    expect(saved.data).toMatchObject({ [CALL_SIGN.key]: CALL_SIGN.value, visibility: { [CALL_SIGN.key]: "private" } });
    const tooLong = ProfileFieldsSchema.safeParse(profileFormInput({ ...form, [CALL_SIGN.key]: "K".repeat(21) }));
    expect(tooLong.error?.issues.map((issue) => issue.path.join("."))).toEqual([CALL_SIGN.key]);
  });

  it("is guessed from an import's column header and filled by the import's plan of a new card", () => {
    // An import keeps only the columns its own list (IMPORT_FIELDS in app/lib/import.ts) names: the field's
    // place there is the recipe's fourth step, which the type check asks for.
    const headers = ["First name", "Last name", "E-mail", "Call Sign"];
    const mapping = guessMapping(headers);
    expect(mapping).toEqual(["firstName", "lastName", "email", CALL_SIGN.key]);
    const plan = planRow(
      { rowNumber: 2, cells: ["Ada", "Radio", "ada@example.test", CALL_SIGN.value] },
      { mapping, overwrite: [], createBrands: false, brandId: null },
      {
        cards: new Map(),
        brandsByName: new Map(),
        brandsById: new Map(),
        place: () => null,
        within: null,
        takenUsernames: new Set(),
        firstRowOfEmail: new Map([["ada@example.test", 2]]),
        firstRowOfUsername: new Map(),
      },
    );
    expect(plan).toMatchObject({ kind: "create", fields: { [CALL_SIGN.key]: CALL_SIGN.value } });
  });
});
