import { and, asc, desc, eq, inArray, ne, type SQL, sql } from "drizzle-orm";
import {
  type ImportField,
  importFieldLabel,
  MAX_IMPORT_BYTES,
  MERGEABLE_FIELDS,
  type MergedValues,
  OVERWRITABLE_FIELDS,
  type OverwritableField,
} from "~/lib/import";
import { can, decide } from "~/lib/permissions";
import { recordAdminAction } from "../audit/record";
import { brandLabel } from "../brands/list-brands";
import { issueInvitationMails } from "../invitations/invitations";
import type { Actor } from "../platform/actor";
import { db, type Queryable, rowsOf } from "../platform/db/client";
import { brands, importRows, imports, invitations, profiles } from "../platform/db/schema";
import { ForbiddenError, NotFoundError, ValidationError } from "../platform/errors";
import { readCsv } from "./csv-file";
import { disabledColumnOf, guessMapping, isImportField } from "./mapping";
import { type ImportSettings, type ListedValues, listedValues, MERGED_VALUE_LIMITS, type SheetRow } from "./plan";

/** Room for a file at its limit and the form around it; the server refuses larger bodies before reading them. */
export const MAX_IMPORT_FORM_BYTES = MAX_IMPORT_BYTES + 256 * 1024;

/** Rows written per statement when a file is stored. */
const STORE_CHUNK = 1_000;

/**
 * An administrator imports into every brand; a brand administrator into the
 * brands they run, and sees their own imports only.
 */
function assertMayImport(actor: Actor) {
  if (!decide(actor, "create:profile") || !decide(actor, "update:profile")) throw new ForbiddenError();
}

/** The brands an import of `actor` may write, or null for all of them. */
export function importScope(actor: Actor): readonly number[] | null {
  return can(actor.role, "create:profile:any") ? null : (actor.brandIds ?? []);
}

/** The active brands an import of `actor` may put every row into, by name. */
export async function importBrandOptions(actor: Actor) {
  const scope = importScope(actor);
  return db
    .select({ id: brands.id, name: brands.name })
    .from(brands)
    .where(and(eq(brands.active, true), scope === null ? undefined : inArray(brands.id, [...scope, 0])))
    .orderBy(asc(brands.name));
}

/** The imports `actor` sees: every one for an administrator, their own for a brand administrator. */
function importsOf(actor: Actor): SQL | undefined {
  return importScope(actor) === null ? undefined : eq(imports.createdBy, actor.user.id);
}

/**
 * Stores an uploaded file as a draft import: its rows, and a mapping guessed
 * from its header. Nothing touches a card until the administrator starts it.
 */
export async function createImport(options: { actor: Actor; fileName: string; bytes: Uint8Array }): Promise<string> {
  assertMayImport(options.actor);
  const sheet = await readCsv(options.bytes);
  return db.transaction(async (tx) => {
    const [created] = await tx
      .insert(imports)
      .values({
        createdBy: options.actor.user.id,
        fileName: options.fileName.slice(0, 200) || "import.csv",
        headers: sheet.headers,
        mapping: (await rememberedMapping(tx, sheet.headers)) ?? guessMapping(sheet.headers),
        totalRows: sheet.rows.length,
      })
      .returning({ id: imports.id });
    if (!created) throw new Error("Inserting the import returned no row");
    for (let start = 0; start < sheet.rows.length; start += STORE_CHUNK) {
      await tx
        .insert(importRows)
        .values(sheet.rows.slice(start, start + STORE_CHUNK).map((row) => ({ importId: created.id, ...row })));
    }
    return created.id;
  });
}

/**
 * The mapping an administrator last chose for a file with the same header row
 * (the next month's export of the same tool), or null: then it is guessed.
 */
async function rememberedMapping(tx: Queryable, headers: string[]): Promise<string[] | null> {
  const [last] = await tx
    .select({ mapping: imports.mapping })
    .from(imports)
    .where(and(eq(imports.headers, headers), ne(imports.status, "draft")))
    .orderBy(desc(imports.createdAt))
    .limit(1);
  return last && last.mapping.length === headers.length ? last.mapping : null;
}

export type ImportRecord = typeof imports.$inferSelect;

export async function getImport(actor: Actor, id: string): Promise<ImportRecord> {
  assertMayImport(actor);
  const [found] = /^[0-9a-f-]{36}$/i.test(id)
    ? await db
        .select()
        .from(imports)
        .where(and(eq(imports.id, id), importsOf(actor)))
    : [];
  if (!found) throw new NotFoundError("import");
  return found;
}

export async function recentImports(actor: Actor, limit = 10) {
  assertMayImport(actor);
  return db
    .select({
      id: imports.id,
      fileName: imports.fileName,
      status: imports.status,
      totalRows: imports.totalRows,
      processedRows: imports.processedRows,
      createdCards: imports.createdCards,
      updatedCards: imports.updatedCards,
      failedRows: imports.failedRows,
      skippedRows: imports.skippedRows,
      createdAt: imports.createdAt,
    })
    .from(imports)
    .where(importsOf(actor))
    .orderBy(desc(imports.createdAt))
    .limit(limit);
}

/** Every row of an import, in file order. */
export async function sheetRows(importId: string): Promise<SheetRow[]> {
  return db
    .select({ rowNumber: importRows.rowNumber, cells: importRows.cells })
    .from(importRows)
    .where(eq(importRows.importId, importId))
    .orderBy(asc(importRows.rowNumber));
}

/** The rows and their outcomes after a run, `errorsOnly` for the report. */
export async function rowOutcomes(
  importId: string,
  options: { errorsOnly?: boolean; offset?: number; limit?: number },
) {
  const where = and(
    eq(importRows.importId, importId),
    options.errorsOnly ? eq(importRows.outcome, "error") : sql`true`,
  );
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(importRows)
      .where(where)
      .orderBy(asc(importRows.rowNumber))
      .offset(options.offset ?? 0)
      .limit(options.limit ?? 1_000_000),
    db.select({ total: sql<number>`count(*)::int` }).from(importRows).where(where),
  ]);
  return { rows, total: count?.total ?? 0 };
}

/**
 * For each column of an import, its first non-empty cell in the file's first
 * rows: what the administrator recognises the column by when matching it.
 */
export async function columnExamples(record: Pick<ImportRecord, "id" | "headers">, rows = 3): Promise<string[]> {
  const samples = await db
    .select({ cells: importRows.cells })
    .from(importRows)
    .where(eq(importRows.importId, record.id))
    .orderBy(asc(importRows.rowNumber))
    .limit(rows);
  return record.headers.map(
    (_, index) => samples.map((row) => row.cells[index]?.trim() ?? "").find((cell) => cell !== "") ?? "",
  );
}

export function settingsOf(record: ImportRecord): ImportSettings {
  return {
    mapping: record.mapping.map((field) => (isImportField(field) ? field : "")),
    overwrite: record.overwrite.filter((field): field is OverwritableField =>
      (OVERWRITABLE_FIELDS as readonly string[]).includes(field),
    ),
    createBrands: record.createBrands,
    brandId: record.brandId,
    disabled: disabledColumnOf(record.headers),
    merges: mergesOf(record.mergedValues),
  };
}

/** The stored merges, of the mergeable fields only. */
function mergesOf(stored: Record<string, Record<string, string>>): MergedValues {
  const merges: MergedValues = {};
  for (const field of MERGEABLE_FIELDS) if (stored[field]) merges[field] = stored[field];
  return merges;
}

/**
 * The administrator's choices on a draft, as sent and not yet checked: for
 * each column the field it fills ("" for none, null when nothing came), the
 * fields ticked to overwrite (null for a value that is not text), and whether
 * unknown brands are created.
 */
export type ImportChoices = {
  columns: readonly (string | null)[];
  overwrite: readonly (string | null)[];
  createBrands: boolean;
  /** The brand every row goes into, as sent ("" or absent: each row's own). */
  brandId?: string | null;
  /** The value boxes as sent, by their names (`mergeTo.office.2`): what each listed value is imported as. */
  merges?: Readonly<Record<string, string | null>>;
};

/**
 * The merges as sent, read against the values the page listed (read again from the file, so
 * a box can only name a listed value): a value imported as itself, or as nothing, is not a
 * merge (an empty box keeps the file's value). Messages are keyed by the boxes' names.
 */
function checkMerges(
  sent: ImportChoices["merges"] = {},
  listed: ListedValues[],
  errors: Record<string, string[]>,
): MergedValues {
  const merges: MergedValues = {};
  for (const { field, values } of listed) {
    const entries: [string, string][] = [];
    values.forEach(({ value: from }, position) => {
      const name = `mergeTo.${field}.${position}`;
      const to = Object.hasOwn(sent, name) ? sent[name] : undefined;
      if (typeof to !== "string") return;
      const value = to.trim();
      if (value.length > MERGED_VALUE_LIMITS[field]) {
        errors[name] = [`At most ${MERGED_VALUE_LIMITS[field]} characters`];
        return;
      }
      if (value && value !== from) entries.push([from, value]);
    });
    // Own keys only, whatever the file's values are ("__proto__" included).
    if (entries.length) merges[field] = Object.fromEntries(entries);
  }
  return merges;
}

/**
 * Checks the choices for a file of `columns` columns. Each field may come
 * from one column, and the email must have one: rows are matched by it. The
 * messages are keyed by the form's names (`column.N`, `overwrite`).
 */
async function checkImportChoices(
  actor: Actor,
  choices: ImportChoices,
  columns: number,
  drawn: { settings: ImportSettings; listed: ListedValues[] },
): Promise<ImportSettings> {
  const mapping: (ImportField | "")[] = [];
  const errors: Record<string, string[]> = {};
  for (let index = 0; index < columns; index++) {
    const value = choices.columns[index] ?? null;
    const field = value !== null && isImportField(value) ? value : "";
    if (value !== null && value !== "" && !field) errors[`column.${index}`] = ["Choose a field from the list"];
    const earlier = field ? mapping.indexOf(field) : -1;
    if (earlier >= 0) {
      errors[`column.${index}`] = [`${importFieldLabel(field)} already comes from column ${earlier + 1}: choose one`];
    }
    mapping.push(field);
  }
  if (!mapping.includes("email") && !errors["column.0"]) {
    errors["column.0"] = ["Choose the column that holds the email: rows are matched to cards by it"];
  }
  const overwrite = choices.overwrite.filter((value): value is OverwritableField =>
    (OVERWRITABLE_FIELDS as readonly unknown[]).includes(value),
  );
  if (choices.overwrite.length !== overwrite.length) errors.overwrite = ["Choose fields from the list"];
  const brandId = await chosenBrand(actor, choices.brandId ?? "");
  if (brandId === undefined) errors.brandId = ["Choose a brand from the list"];
  const merges = checkMerges(choices.merges, drawn.listed, errors);
  if (Object.keys(errors).length) throw new ValidationError(errors);
  // The boxes were drawn for the saved mapping: a field now read from another column, or the
  // brand once every row goes into one, starts without merges.
  for (const field of MERGEABLE_FIELDS) {
    const moved = mapping.indexOf(field) !== drawn.settings.mapping.indexOf(field);
    if (moved || (field === "brand" && brandId !== null)) delete merges[field];
  }
  // Only an administrator of the whole site creates brands.
  const createBrands = choices.createBrands && importScope(actor) === null;
  return { mapping, overwrite: [...new Set(overwrite)], createBrands, brandId: brandId ?? null, merges };
}

/** The brand chosen for every row: null for none, undefined for one that is not an active brand within reach. */
async function chosenBrand(actor: Actor, text: string): Promise<number | null | undefined> {
  if (text === "") return null;
  if (!/^[1-9][0-9]{0,9}$/.test(text)) return undefined;
  const id = Number(text);
  const scope = importScope(actor);
  if (scope !== null && !scope.includes(id)) return undefined;
  const [brand] = await db
    .select({ id: brands.id })
    .from(brands)
    .where(and(eq(brands.id, id), eq(brands.active, true)));
  return brand ? brand.id : undefined;
}

/**
 * Saves a draft's mapping and options once they pass the checks above; an
 * import that has started keeps the ones it started with.
 */
export async function saveImportSettings(actor: Actor, id: string, choices: ImportChoices) {
  const record = await getImport(actor, id);
  const drawn = settingsOf(record);
  const listed = listedValues(await sheetRows(id), drawn);
  const settings = await checkImportChoices(actor, choices, record.headers.length, { settings: drawn, listed });
  if (record.status !== "draft") throw new ValidationError({ form: ["This import has already started."] });
  await db
    .update(imports)
    .set({
      mapping: settings.mapping,
      overwrite: settings.overwrite,
      createBrands: settings.createBrands,
      brandId: settings.brandId,
      mergedValues: settings.merges ?? {},
    })
    .where(and(eq(imports.id, id), eq(imports.status, "draft")));
}

/** The audit entry's line for merged values: "Office: Tokyo Office → Tokyo; …", when any were merged. */
function mergedChange(stored: Record<string, Record<string, string>>): Record<string, [null, string]> {
  const merges = mergesOf(stored);
  const parts = MERGEABLE_FIELDS.flatMap((field) =>
    Object.entries(merges[field] ?? {}).map(([from, to]) => `${importFieldLabel(field)}: ${from} → ${to}`),
  );
  const text = parts.join("; ");
  return parts.length ? { "merged values": [null, text.length > 500 ? `${text.slice(0, 499)}…` : text] } : {};
}

/** Hands a draft, or an interrupted import, to the import worker. */
export async function queueImport(actor: Actor, id: string) {
  const record = await getImport(actor, id);
  const everyRowInto = record.brandId !== null ? await brandLabel(record.brandId) : null;
  const queued = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(imports)
      .set({ status: "queued", error: null })
      .where(
        and(
          eq(imports.id, id),
          // A running import whose server stopped (no heartbeat) may be run again too: rows already done stay done.
          sql`(${imports.status} in ('draft', 'interrupted') or (${imports.status} = 'running' and ${imports.heartbeatAt} < now() - ${sql.raw(`interval '${STALE_AFTER_SECONDS} seconds'`)}))`,
        ),
      )
      .returning({ id: imports.id });
    if (row) {
      await recordAdminAction(tx, {
        actor,
        action: "import",
        target: { kind: "import", id, label: record.fileName },
        changes: {
          rows: [null, record.totalRows],
          overwrite: [null, record.overwrite.map(importFieldLabel).join(", ") || "nothing"],
          createBrands: [null, record.createBrands],
          ...(everyRowInto !== null ? { "every row into": [null, everyRowInto] } : {}),
          ...mergedChange(record.mergedValues),
        },
      });
    }
    return row;
  });
  if (!queued && record.status !== "queued") {
    throw new ValidationError({ form: ["This import is already running."] });
  }
}

/** A draft the administrator does not want: its stored rows go. */
export async function discardImport(actor: Actor, id: string) {
  const record = await getImport(actor, id);
  await db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(imports)
      .where(and(eq(imports.id, id), inArray(imports.status, ["draft", "done", "interrupted"])))
      .returning({ id: imports.id });
    if (gone) {
      await recordAdminAction(tx, {
        actor,
        action: "discard",
        target: { kind: "import", id, label: record.fileName },
        changes: { status: [record.status, null], rows: [record.totalRows, null] },
      });
    }
  });
}

/** A running import whose heartbeat is older than this was left by a server that stopped. */
export const STALE_AFTER_SECONDS = 30;

export function isStale(record: Pick<ImportRecord, "status" | "heartbeatAt">, now = new Date()): boolean {
  return (
    record.status === "running" &&
    (record.heartbeatAt === null || now.getTime() - record.heartbeatAt.getTime() > STALE_AFTER_SECONDS * 1000)
  );
}

/** Most new people one import offers to invite at once: one statement per batch of the queue. */
const INVITE_BATCH = 1_000;

/**
 * The cards an import made that wait for their first invitation: unclaimed,
 * active, never invited, found by the address of each row it created. With
 * how many there are and the first names, for the confirmation.
 */
export async function newPeopleOfImport(
  actor: Actor,
  id: string,
): Promise<{ ids: string[]; count: number; firstNames: string[] }> {
  const record = await getImport(actor, id);
  const emailIndex = settingsOf(record).mapping.indexOf("email");
  if (record.status !== "done" || emailIndex < 0) return { ids: [], count: 0, firstNames: [] };
  // Each created row finds its card through the index of addresses (a lateral join with a limit
  // leaves the planner no other order), however stale its statistics of the two tables are.
  const rows = rowsOf(
    await db.execute(sql`
      select p.id, p.first_name as "firstName" from ${importRows} r
      cross join lateral (
        select id, first_name, user_id, deactivated_at from ${profiles}
        where lower(email) = lower(trim(r.cells->>${emailIndex}::int))
        limit 1
      ) p
      where r.import_id = ${record.id} and r.outcome = 'created'
        and p.user_id is null and p.deactivated_at is null
        and not exists (select 1 from ${invitations} i where i.profile_id = p.id)
      order by r.row_number`),
  ) as { id: string; firstName: string }[];
  return {
    ids: rows.map((row) => row.id),
    count: rows.length,
    firstNames: rows.slice(0, 3).map((row) => row.firstName),
  };
}

/** Invites the new people of a finished import, in batches; returns how many were queued. */
export async function inviteNewPeopleOfImport(actor: Actor, id: string): Promise<number> {
  if (!can(actor.role, "invite:profile:any")) throw new ForbiddenError();
  const { ids } = await newPeopleOfImport(actor, id);
  let queued = 0;
  for (let start = 0; start < ids.length; start += INVITE_BATCH) {
    const batch = ids.slice(start, start + INVITE_BATCH);
    queued += (await issueInvitationMails({ kind: "invitation", scope: { ids: batch }, actor })).queued;
  }
  return queued;
}
