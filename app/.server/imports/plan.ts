import { and, sql } from "drizzle-orm";
import { CARD_FIELD_KEYS, CARD_FIELDS, type CardDetails, type CardFieldKey, isCardField } from "~/lib/card-fields";
import type { ImportField, MergeableField, MergedValues, OverwritableField } from "~/lib/import";
import { IMPORT_FIELDS, importFieldLabel, MAX_LISTED_VALUES, MERGEABLE_FIELDS } from "~/lib/import";
import { brandPlacement } from "../brands/domains";
import { BrandSchema } from "../brands/schemas";
import type { Queryable } from "../platform/db/client";
import { brands, profiles, usernameRedirects } from "../platform/db/schema";
import { fieldErrors } from "../platform/validation";
import { CARD_DETAIL_COLUMNS, linksFromText } from "../profiles/card-fields";
import { isManagerName, MANAGER_MESSAGES } from "../profiles/managers";
import {
  CreateProfileSchema,
  type NewProfileFields,
  type ProfileFields,
  ProfileFieldsSchema,
  USERNAME_TAKEN,
} from "../profiles/schemas";
import { oldNameLive, RESERVED_USERNAMES } from "../profiles/usernames";

/**
 * What importing one row does, decided from the row and what is stored now.
 * The preview and the import call the same function, so the preview says
 * what the import will do; and because a row already imported now matches
 * what is stored, running a file again plans "unchanged" for it.
 */
export type RowPlan =
  | { kind: "create"; fields: NewProfileFields; newBrand: string | null }
  | {
      kind: "update";
      profileId: string;
      changes: Partial<ProfileFields>;
      changed: string[];
      newBrand: string | null;
      kept: string[];
    }
  | { kind: "unchanged"; profileId: string; kept: string[] }
  /** Left out on purpose, not a mistake in the file: an account disabled where the file came from. */
  | { kind: "skip"; reason: string }
  | { kind: "error"; reason: string };

export type ImportSettings = {
  mapping: (ImportField | "")[];
  overwrite: OverwritableField[];
  createBrands: boolean;
  /** The brand every row goes into, when one was chosen: the file's brand column is then not read. */
  brandId: number | null;
  /** A known export's column saying an account is disabled, and the values that say so (imports/formats.ts). */
  disabled?: { index: number; values: string[] } | null;
  /** Values imported under another value ("Tokyo Office" as "Tokyo"). */
  merges?: MergedValues;
};

type StoredCard = CardDetails & {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  username: string;
  companyBrandId: number | null;
};

type StoredBrand = { id: number; name: string; active: boolean };

/** What the rows of a file are planned against. */
export type PlanContext = {
  cards: Map<string, StoredCard>;
  brandsByName: Map<string, StoredBrand>;
  brandsById: Map<number, StoredBrand>;
  /** The brand of an address, for a row that names none (brands/domains.ts). */
  place: (email: string) => number | null;
  /** The brands the import's administrator runs; null for an administrator of the whole site. */
  within: ReadonlySet<number> | null;
  /** Usernames given in the file that another card has (lower case). */
  takenUsernames: Set<string>;
  /** The first row of the file with each email, and with each username (lower case). */
  firstRowOfEmail: Map<string, number>;
  firstRowOfUsername: Map<string, number>;
};

export type SheetRow = { rowNumber: number; cells: string[] };

/** How Google's exports join the values of one cell ("+1 555 0100 ::: +1 555 0199"). */
const MULTI_VALUE = /\s*:::\s*/;

/**
 * The values of a row by field; unmapped fields are absent. A cell holding
 * several values takes its first, and links take them all. A value the
 * administrator merged into another is that other.
 */
export function rowValues(
  cells: string[],
  mapping: ImportSettings["mapping"],
  merges: MergedValues = {},
): Partial<Record<ImportField, string>> {
  const values: Partial<Record<ImportField, string>> = {};
  mapping.forEach((field, index) => {
    if (!field) return;
    const cell = cells[index] ?? "";
    if (!MULTI_VALUE.test(cell)) values[field] = cell;
    else values[field] = field === "links" ? cell.split(MULTI_VALUE).join("\n") : (cell.split(MULTI_VALUE)[0] ?? "");
  });
  for (const field of MERGEABLE_FIELDS) {
    const merged = mergedValue(merges, field, values[field]?.trim() ?? "");
    if (merged !== undefined) values[field] = merged;
  }
  return values;
}

/** What a value is imported as when it was merged into another; a file's value is only ever an own key. */
function mergedValue(merges: MergedValues, field: MergeableField, value: string): string | undefined {
  const own = merges[field];
  return own && Object.hasOwn(own, value) ? own[value] : undefined;
}

/** The longest value each mergeable field takes: a card's office and department, a brand's name. */
export const MERGED_VALUE_LIMITS: Record<MergeableField, number> = { office: 100, department: 100, brand: 80 };

/**
 * What the value boxes may hold together: the import form's body is read up to 64 KB, and the
 * boxes are sent with the mapping every time, so long values (or many in a script that costs
 * nine bytes a character) are listed only while they fit.
 */
const VALUE_BOXES_BUDGET = 40 * 1024;

export type ListedValues = {
  field: MergeableField;
  label: string;
  /** Each value as the file writes it, how many rows have it, and what it is imported as. */
  values: { value: string; rows: number; importedAs: string }[];
  /** Values beyond the listed ones. */
  more: number;
};

/**
 * The values of the office, department and brand columns, for merging: a field is listed
 * when its column is mapped (the brand's only when rows say their brand) and holds two
 * values or more, alphabetically, so that "Tokyo" and "Tokyo Office" sit together. A value
 * too long for its field is an error of its rows, not listed. The form names each box by
 * its field and place in this list (`mergeTo.office.2`), and the server reads the list again.
 */
export function listedValues(rows: SheetRow[], settings: ImportSettings): ListedValues[] {
  const listed: ListedValues[] = [];
  let budget = VALUE_BOXES_BUDGET;
  for (const field of MERGEABLE_FIELDS) {
    const index = settings.mapping.indexOf(field);
    if (index < 0 || (field === "brand" && settings.brandId !== null)) continue;
    const counts = new Map<string, number>();
    for (const row of rows) {
      const value = rowValues(row.cells, settings.mapping)[field]?.trim() ?? "";
      if (value && value.length <= MERGED_VALUE_LIMITS[field]) counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    if (counts.size < 2) continue;
    const sorted = [...counts].sort(([a], [b]) => a.localeCompare(b, "en", { sensitivity: "base" }));
    const values: ListedValues["values"] = [];
    for (const [value, count] of sorted.slice(0, MAX_LISTED_VALUES)) {
      const importedAs = mergedValue(settings.merges ?? {}, field, value) ?? value;
      budget -= encodeURIComponent(importedAs).length + 24;
      if (budget < 0) break;
      values.push({ value, rows: count, importedAs });
    }
    listed.push({ field, label: importFieldLabel(field), values, more: sorted.length - values.length });
  }
  return listed;
}

export type ShownField = { label: string; value: string };

/** A long value is shown to its beginning: a bio is a paragraph. */
const SHOWN_CHARS = 80;

/** A row's mapped fields other than its name and email, as the preview lists them: label and value, filled ones only. */
export function shownFields(values: Partial<Record<ImportField, string>>): ShownField[] {
  return IMPORT_FIELDS.flatMap(({ key, label }) => {
    if (key === "firstName" || key === "lastName" || key === "email") return [];
    const value = values[key]?.trim().replace(/\s+/g, " ") ?? "";
    if (!value) return [];
    return [{ label, value: value.length > SHOWN_CHARS ? `${value.slice(0, SHOWN_CHARS)}…` : value }];
  });
}

const emailKey = (value: string | undefined) => (value ?? "").trim().toLowerCase();
const brandKey = (value: string) => value.trim().toLocaleLowerCase("en-US");

function firstRows(rows: SheetRow[], mapping: ImportSettings["mapping"], field: ImportField) {
  const index = mapping.indexOf(field);
  const first = new Map<string, number>();
  if (index < 0) return first;
  for (const row of rows) {
    const key = emailKey(row.cells[index]);
    if (key && !first.has(key)) first.set(key, row.rowNumber);
  }
  return first;
}

/**
 * Reads what `rows` are planned against, in `tx` (the batch's transaction
 * during an import). `allRows` is the whole file, for duplicates within it.
 */
export async function loadPlanContext(
  tx: Queryable,
  rows: SheetRow[],
  allRows: SheetRow[],
  mapping: ImportSettings["mapping"],
  within: readonly number[] | null = null,
): Promise<PlanContext> {
  const emailIndex = mapping.indexOf("email");
  const usernameIndex = mapping.indexOf("username");
  const emails = JSON.stringify([...new Set(rows.map((row) => emailKey(row.cells[emailIndex])).filter(Boolean))]);
  const usernames = JSON.stringify([
    ...new Set(usernameIndex < 0 ? [] : rows.map((row) => emailKey(row.cells[usernameIndex])).filter(Boolean)),
  ]);
  const cards =
    emailIndex < 0
      ? []
      : await tx
          .select({
            id: profiles.id,
            // The email is a card field too: its column comes with the others.
            ...CARD_DETAIL_COLUMNS,
            firstName: profiles.firstName,
            lastName: profiles.lastName,
            username: profiles.username,
            companyBrandId: profiles.companyBrandId,
          })
          .from(profiles)
          .where(sql`lower(${profiles.email}) in (select jsonb_array_elements_text(${emails}::jsonb))`);
  const brandRows = await tx
    .select({ id: brands.id, name: brands.name, active: brands.active })
    .from(brands)
    .orderBy(sql`${brands.active} desc`, brands.id);
  const brandsByName = new Map<string, StoredBrand>();
  for (const brand of brandRows)
    if (!brandsByName.has(brandKey(brand.name))) brandsByName.set(brandKey(brand.name), brand);
  const taken =
    usernameIndex < 0
      ? []
      : [
          ...(await tx
            .select({ username: sql<string>`lower(${profiles.username})` })
            .from(profiles)
            .where(sql`lower(${profiles.username}) in (select jsonb_array_elements_text(${usernames}::jsonb))`)),
          ...(await tx
            .select({ username: usernameRedirects.username })
            .from(usernameRedirects)
            .where(
              and(
                sql`${usernameRedirects.username} in (select jsonb_array_elements_text(${usernames}::jsonb))`,
                oldNameLive(),
              ),
            )),
        ];
  return {
    cards: new Map(cards.map((card) => [card.email.toLowerCase(), card])),
    brandsByName,
    brandsById: new Map(brandRows.map((brand) => [brand.id, brand])),
    place: await brandPlacement(tx),
    within: within ? new Set(within) : null,
    takenUsernames: new Set([...RESERVED_USERNAMES, ...taken.map((row) => row.username)]),
    firstRowOfEmail: firstRows(allRows, mapping, "email"),
    firstRowOfUsername: firstRows(allRows, mapping, "username"),
  };
}

function reasonOf(errors: Record<string, string[] | undefined>): string {
  return Object.values(errors)
    .map((messages) => messages?.[0])
    .filter(Boolean)
    .join("; ");
}

type BrandChoice = { id: number | null; newBrand: string | null } | { error: string };

/** Why a row of a brand administrator's import cannot be imported, or null. */
export const IMPORT_SCOPE_MESSAGES = {
  noBrand: "Choose a brand for this row: you can import into the brands you run only",
  outside: "This row's brand is not one you run: choose one of your brands for every row",
  card: "This address belongs to a card outside the brands you run",
  newBrand: "Only an administrator of the whole site can create brands",
};

/**
 * The brand a row names: the one chosen for every row; a stored active brand
 * (any letter case); for a path such as Google's Org Unit Path
 * ("/Aurora Foods/Sales"), its deepest part that names a brand; a new one to
 * create; or an error.
 */
function chooseBrand(text: string | undefined, settings: ImportSettings, context: PlanContext): BrandChoice {
  if (settings.brandId !== null) {
    const chosen = context.brandsById.get(settings.brandId);
    if (!chosen?.active) return { error: "The brand chosen for every row is inactive or no longer exists" };
    return { id: chosen.id, newBrand: null };
  }
  const name = (text ?? "").trim();
  if (!name) return { id: null, newBrand: null };
  const stored = context.brandsByName.get(brandKey(name));
  if (stored?.active) return { id: stored.id, newBrand: null };
  if (stored) return { error: `The brand "${stored.name}" is inactive: make it active in Brand Management first` };
  if (name.includes("/")) return brandOfPath(name, settings, context);
  return newBrand(name, settings);
}

/** A unit path's brand: its deepest part that is an active brand's name; the root ("/") is no brand. */
function brandOfPath(path: string, settings: ImportSettings, context: PlanContext): BrandChoice {
  const parts = path
    .split("/")
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length === 0) return { id: null, newBrand: null };
  for (const part of [...parts].reverse()) {
    const stored = context.brandsByName.get(brandKey(part));
    if (stored?.active) return { id: stored.id, newBrand: null };
  }
  return newBrand(parts[0] ?? path, settings, path);
}

function newBrand(name: string, settings: ImportSettings, path?: string): BrandChoice {
  if (!settings.createBrands) {
    return {
      error: path
        ? `No brand is named in "${path}": add "${name}" in Brand Management, or tick "Create brands that do not exist yet"`
        : `Unknown brand "${name}": add it in Brand Management, or tick "Create brands that do not exist yet"`,
    };
  }
  const parsed = BrandSchema.shape.name.safeParse(name);
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? "Check the brand name" };
  return { id: null, newBrand: parsed.data };
}

/** Whether a brand administrator's import may put a card in `brand` (an administrator's may put it anywhere). */
function outsideScope(brand: { id: number | null; newBrand: string | null }, context: PlanContext): string | null {
  if (!context.within) return null;
  if (brand.newBrand !== null) return IMPORT_SCOPE_MESSAGES.newBrand;
  if (brand.id === null) return IMPORT_SCOPE_MESSAGES.noBrand;
  return context.within.has(brand.id) ? null : IMPORT_SCOPE_MESSAGES.outside;
}

const asText = (value: string | null | undefined) => value ?? "";

/** A cell as its field's form value: a links field takes every address in it. */
function cellValue(field: CardFieldKey, cell: string): string | { kind: string; url: string }[] {
  return CARD_FIELDS[field].kind === "links" ? linksFromText(cell) : cell;
}

/** The stored card as the edit form would send it (its links as the parsed list). */
function formOf(card: StoredCard): Record<string, unknown> {
  return {
    ...Object.fromEntries(CARD_FIELD_KEYS.map((key) => [key, card[key] ?? ""])),
    firstName: card.firstName,
    lastName: card.lastName,
    username: card.username,
    email: card.email,
    companyBrandId: card.companyBrandId === null ? "" : String(card.companyBrandId),
  };
}

export function planRow(row: SheetRow, settings: ImportSettings, context: PlanContext): RowPlan {
  const disabled = settings.disabled;
  if (disabled && disabled.values.includes((row.cells[disabled.index] ?? "").trim().toLowerCase())) {
    return { kind: "skip", reason: "Skipped: the account is disabled in the directory this file came from" };
  }
  const values = rowValues(row.cells, settings.mapping, settings.merges);
  const email = emailKey(values.email);
  const firstRow = context.firstRowOfEmail.get(email);
  if (email && firstRow !== undefined && firstRow !== row.rowNumber) {
    return { kind: "error", reason: `The same email as row ${firstRow}: each person can be on one row only` };
  }
  const card = context.cards.get(email);
  return card ? planUpdate(values, card, settings, context) : planCreate(row, values, settings, context);
}

function planCreate(
  row: SheetRow,
  values: Partial<Record<ImportField, string>>,
  settings: ImportSettings,
  context: PlanContext,
): RowPlan {
  const chosen = chooseBrand(values.brand, settings, context);
  // A row that names no brand goes where its address does (as every other way in), shown so in the preview.
  const brand =
    "error" in chosen || chosen.id !== null || chosen.newBrand !== null
      ? chosen
      : { id: context.place(values.email ?? ""), newBrand: null };
  const form = {
    // Every card field from its column: one the import cannot fill fails the type check here.
    ...Object.fromEntries(CARD_FIELD_KEYS.map((key) => [key, cellValue(key, values[key] ?? "")])),
    firstName: values.firstName ?? "",
    lastName: values.lastName ?? "",
    email: values.email ?? "",
    username: values.username ?? "",
    companyBrandId: "id" in brand && brand.id !== null ? String(brand.id) : "",
  };
  const parsed = CreateProfileSchema.safeParse(form);
  const errors = parsed.success ? {} : fieldErrors(parsed.error);
  if ("error" in brand) errors.companyBrandId = [brand.error];
  else {
    const refused = outsideScope(brand, context);
    if (refused) errors.companyBrandId = [refused];
  }
  const username = parsed.success ? parsed.data.username : null;
  if (username) {
    const first = context.firstRowOfUsername.get(username);
    if (context.takenUsernames.has(username)) errors.username = [USERNAME_TAKEN];
    else if (first !== undefined && first !== row.rowNumber) errors.username = [`The same username as row ${first}`];
  }
  if (!parsed.success || Object.keys(errors).length) return { kind: "error", reason: reasonOf(errors) };
  return { kind: "create", fields: parsed.data, newBrand: "newBrand" in brand ? brand.newBrand : null };
}

/** Compares a stored value with a parsed one as the card shows them (links by what they hold). */
const same = (a: unknown, b: unknown) =>
  Array.isArray(a) || Array.isArray(b)
    ? JSON.stringify(a ?? []) === JSON.stringify(b ?? [])
    : (a ?? null) === (b ?? null);

function planUpdate(
  values: Partial<Record<ImportField, string>>,
  card: StoredCard,
  settings: ImportSettings,
  context: PlanContext,
): RowPlan {
  if (context.within && (card.companyBrandId === null || !context.within.has(card.companyBrandId))) {
    return { kind: "error", reason: IMPORT_SCOPE_MESSAGES.card };
  }
  const form = formOf(card);
  let newBrand: string | null = null;
  // Only the ticked fields, and only from cells that hold something: an empty cell never clears a card's field.
  for (const field of settings.overwrite) {
    const cell = values[field]?.trim();
    // The manager is set after every row is in, since it may be a row further down (run.ts).
    if ((!cell && !(field === "brand" && settings.brandId !== null)) || field === "manager") continue;
    if (field === "brand") {
      const brand = chooseBrand(cell, settings, context);
      if ("error" in brand) return { kind: "error", reason: brand.error };
      // A path that names no brand (Google's root unit, "/") leaves the card where it is.
      if (brand.id === null && brand.newBrand === null) continue;
      const refused = outsideScope(brand, context);
      if (refused) return { kind: "error", reason: refused };
      form.companyBrandId = brand.id === null ? "" : String(brand.id);
      newBrand = brand.newBrand;
    } else {
      form[field] = isCardField(field) ? cellValue(field, cell ?? "") : cell;
    }
  }
  const parsed = ProfileFieldsSchema.safeParse(form);
  if (!parsed.success) return { kind: "error", reason: reasonOf(fieldErrors(parsed.error)) };
  const changes: Partial<ProfileFields> = {};
  const changed: string[] = [];
  for (const field of settings.overwrite) {
    if (field === "manager") continue;
    const key = field === "brand" ? "companyBrandId" : field;
    if (
      field === "brand"
        ? newBrand !== null || !same(card.companyBrandId, parsed.data.companyBrandId)
        : !same(card[key as keyof StoredCard], parsed.data[key])
    ) {
      Object.assign(changes, { [key]: parsed.data[key] });
      changed.push(importFieldLabel(field));
    }
  }
  const kept = untickedDifferences(values, card, settings, context);
  if (changed.length === 0) return { kind: "unchanged", profileId: card.id, kept };
  return { kind: "update", profileId: card.id, changes, changed, newBrand, kept };
}

/** Fields whose cell differs from the card but were not ticked: the card keeps its own. */
function untickedDifferences(
  values: Partial<Record<ImportField, string>>,
  card: StoredCard,
  settings: ImportSettings,
  context: PlanContext,
): string[] {
  const kept: string[] = [];
  for (const [field, raw] of Object.entries(values) as [ImportField, string][]) {
    const cell = raw.trim();
    if (!cell || field === "email" || field === "manager" || settings.overwrite.includes(field as OverwritableField)) {
      continue;
    }
    if (isCardField(field) && CARD_FIELDS[field].kind === "links") {
      if (!same(card[field], cellValue(field, cell))) kept.push(importFieldLabel(field));
      continue;
    }
    const stored =
      field === "brand"
        ? (context.brandsById.get(card.companyBrandId ?? -1)?.name ?? "")
        : asText(card[field as keyof StoredCard] as string | null);
    const differs = field === "brand" || field === "username" ? brandKey(stored) !== brandKey(cell) : stored !== cell;
    if (differs) kept.push(importFieldLabel(field));
  }
  return kept;
}

/** The text the preview and the report give a planned row. */
export function describePlan(plan: RowPlan): string {
  switch (plan.kind) {
    case "create":
      return plan.newBrand ? `Creates the brand "${plan.newBrand}"` : "";
    case "update":
      return `Updates ${plan.changed.join(", ")}${plan.kept.length ? `; keeps the card's own ${plan.kept.join(", ")}` : ""}`;
    case "unchanged":
      return plan.kept.length
        ? `Keeps the card's own ${plan.kept.join(", ")} (not ticked to overwrite)`
        : "Already up to date";
    case "skip":
    case "error":
      return plan.reason;
  }
}

/**
 * What the preview says of each row's manager: who they will report to (a
 * card that exists, or a row of the file), or why none will be set. The
 * import checks again when it sets them, after every row is in, and refuses
 * a cycle or a deactivated manager then.
 */
export async function managerNotes(
  tx: Queryable,
  rows: SheetRow[],
  mapping: ImportSettings["mapping"],
): Promise<Map<number, string>> {
  const notes = new Map<number, string>();
  const managerIndex = mapping.indexOf("manager");
  if (managerIndex < 0) return notes;
  const wanted = (row: SheetRow) => (row.cells[managerIndex] ?? "").trim().replace(/^@/, "").toLowerCase();
  const named = JSON.stringify([...new Set(rows.map(wanted).filter((name) => name && isManagerName(name)))]);
  const stored = await tx
    .select({
      email: sql<string>`lower(${profiles.email})`,
      username: sql<string>`lower(${profiles.username})`,
      deactivated: sql<boolean>`${profiles.deactivatedAt} is not null`,
    })
    .from(profiles)
    .where(
      sql`lower(${profiles.email}) in (select jsonb_array_elements_text(${named}::jsonb)) or lower(${profiles.username}) in (select jsonb_array_elements_text(${named}::jsonb))`,
    );
  // Each name a manager may be given by, and whether that card is deactivated.
  const known = new Map(
    stored.flatMap((card) => [[card.email, card.deactivated] as const, [card.username, card.deactivated] as const]),
  );
  for (const field of ["email", "username"] as const) {
    const index = mapping.indexOf(field);
    if (index < 0) continue;
    for (const row of rows) {
      const name = (row.cells[index] ?? "").trim().toLowerCase();
      if (name && !known.has(name)) known.set(name, false);
    }
  }
  for (const row of rows) {
    const name = wanted(row);
    if (!name) continue;
    const deactivated = known.get(name);
    notes.set(
      row.rowNumber,
      deactivated === undefined
        ? `No manager is set: ${MANAGER_MESSAGES.unknown}`
        : deactivated
          ? `No manager is set: ${MANAGER_MESSAGES.deactivated}`
          : `Reports to ${name}`,
    );
  }
  return notes;
}
