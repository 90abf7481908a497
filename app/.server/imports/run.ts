import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { fullName } from "~/lib/names";
import { administeredBrandsColumn, brandIdsOf } from "../access/brand-grants";
import { compareIds } from "../analytics/views";
import { changedFields, recordAdminAction } from "../audit/record";
import type { Actor } from "../platform/actor";
import { roleOf } from "../platform/admins";
import { db, getDatabaseHandle, type Queryable, rowsOf } from "../platform/db/client";
import { databaseErrorLine, isRetryableConflict } from "../platform/db/errors";
import { brands, importRows, imports, profiles, users } from "../platform/db/schema";
import { refreshPlannerStatistics } from "../platform/db/upkeep";
import { diskSpaceLow, megabytes } from "../platform/disk-space";
import { ValidationError } from "../platform/errors";
import { publishAll, type RealtimeEvent } from "../platform/realtime";
import { type CardWriter, writeCards } from "../profiles/card-writer";
import { managerNames, resolveManager } from "../profiles/managers";
import { managerChoices } from "../profiles/update-profile";
import { uniqueUsernames, usernameBase } from "../profiles/usernames";
import { newCardVisibility } from "../profiles/visibility";
import { importScope, STALE_AFTER_SECONDS, settingsOf, sheetRows } from "./imports";
import { describePlan, loadPlanContext, type PlanContext, planRow, type RowPlan, type SheetRow } from "./plan";

/**
 * The import worker (docs/decisions/020-bulk-import.md): imports run in this
 * server process, off the request path, one batch of rows per transaction.
 * A batch writes its cards, its rows' outcomes and the import's counters
 * together, so a server stopped mid-batch leaves the batch undone, never half
 * done, and the next run carries on from the first row without an outcome.
 */
const BATCH_ROWS = 500;
const POLL_MS = 5_000;
/**
 * How long one batch should hold the embedded database, as near as whole rows
 * allow: there every request waits for the batch's transaction (one
 * connection), so batches are sized to this from how long the last one took,
 * between `MIN_BATCH_ROWS` and `BATCH_ROWS`, starting small.
 */
const BATCH_TARGET_MS = 250;
const MIN_BATCH_ROWS = 20;
const FIRST_BATCH_ROWS = 50;
/**
 * A pause between batches: on the embedded database every query shares one
 * connection, and pages asked for during an import get their turn here
 * instead of waiting for the whole import.
 */
const BATCH_PAUSE_MS = 50;
/** The embedded database's planner hears how the cards have grown every this many batches, and at the end. */
const STATISTICS_EVERY_BATCHES = 20;

type RunOptions = {
  /** Rows per batch, fixed; unset sizes batches by time. */
  batchRows?: number;
  /** Stop after this many batches, leaving the import running (as a server killed between batches would). */
  maxBatches?: number;
  /** Runs inside each batch's transaction after its writes, before it commits; throwing undoes the batch. */
  beforeCommit?: (batch: number) => void | Promise<void>;
};

/** What a row's plan reads as once it is done. */
const OUTCOME_OF = {
  create: "created",
  update: "updated",
  unchanged: "unchanged",
  skip: "skipped",
  error: "error",
} as const satisfies Record<RowPlan["kind"], string>;

type BatchCounts = { created: number; updated: number; unchanged: number; skipped: number; failed: number };

/**
 * Who an import's changes are recorded as: the administrator who started it,
 * with the file named in each entry. The cards it makes are counted in the
 * entry that started it; each brand it makes and each card it changes gets
 * an entry of its own, old and new values as for a change made by hand.
 */
type ImportAudit = { actor: Actor; fileName: string; cards: PlanContext["cards"] };

async function importActor(tx: Queryable, userId: string | null): Promise<Actor> {
  const [user] = userId
    ? await tx
        .select({
          id: users.id,
          name: users.name,
          email: users.email,
          role: users.role,
          brands: administeredBrandsColumn(users.id),
        })
        .from(users)
        .where(eq(users.id, userId))
    : [];
  if (!user) return { user: { id: "", name: "An administrator who has left", email: "" }, role: "admin" };
  // As they are now: a brand administrator whose brands were taken away imports into none of them.
  const { brands: brandColumn, role, ...person } = user;
  return { user: person, role: roleOf({ email: user.email, role }), brandIds: brandIdsOf(brandColumn) };
}

/**
 * Applies one batch of planned rows inside `tx`: the one place an import
 * changes cards and brands.
 */
async function applyBatch(
  tx: Queryable,
  planned: { row: SheetRow; plan: RowPlan }[],
  /** Usernames rows of the file ask for: no generated one takes them. */
  fileUsernames: Iterable<string>,
  audit: ImportAudit,
) {
  const events: RealtimeEvent[] = [];
  // Brands the file names that do not exist yet, once each (the option was ticked, or planning said error).
  const brandIds = new Map<string, number>();
  for (const { plan } of planned) {
    const name = plan.kind === "create" || plan.kind === "update" ? plan.newBrand : null;
    if (!name || brandIds.has(name.toLocaleLowerCase("en-US"))) continue;
    const [created] = await tx.insert(brands).values({ name }).returning({ id: brands.id });
    if (!created) throw new Error("Inserting a brand returned no row");
    brandIds.set(name.toLocaleLowerCase("en-US"), created.id);
    events.push({ kind: "brand", id: String(created.id) });
    await recordAdminAction(tx, {
      actor: audit.actor,
      action: "create",
      target: { kind: "brand", id: created.id, label: name },
      changes: { name: [null, name], import: [null, audit.fileName] },
    });
  }
  const brandOf = (name: string | null) => (name ? (brandIds.get(name.toLocaleLowerCase("en-US")) ?? null) : null);

  const creates = planned.filter((entry) => entry.plan.kind === "create") as {
    row: SheetRow;
    plan: Extract<RowPlan, { kind: "create" }>;
  }[];
  // Usernames left blank follow the create form's first.last rule; none may take one the file gives another row.
  const blank = creates.filter(({ plan }) => !plan.fields.username);
  const generated = await uniqueUsernames(
    tx,
    blank.map(({ plan }) => usernameBase(plan.fields.firstName, plan.fields.lastName, plan.fields.email)),
    fileUsernames,
  );
  const usernames = new Map(blank.map(({ row }, index) => [row.rowNumber, generated[index] as string]));
  await publishAll(events, tx);
  return await writeCards(
    { kind: "import", actor: audit.actor, fileName: audit.fileName },
    async (cards) => {
      const createdIds = new Map<number, string>();
      if (creates.length) {
        const fieldVisibility = await newCardVisibility(tx);
        const inserted = await cards.createMany(
          creates.map(({ row, plan }) => ({
            ...plan.fields,
            fieldVisibility,
            username: plan.fields.username ?? (usernames.get(row.rowNumber) as string),
            companyBrandId: plan.fields.companyBrandId ?? brandOf(plan.newBrand),
            userId: null,
          })),
        );
        const byEmail = new Map(inserted.map((card) => [card.email.toLowerCase(), card.id]));
        for (const { row, plan } of creates) createdIds.set(row.rowNumber, byEmail.get(plan.fields.email) as string);
        // A card made for the address of a confirmed account without a card belongs to it at once, as with the create form.
        await cards.claimForAccounts(inserted.map((card) => card.id));
      }
      await updateCards(cards, planned, audit, brandOf);
      return createdIds;
    },
    tx,
  );
}

/**
 * Changes the existing cards of a batch in the order of their ids, the order
 * views take them in (analytics/views.ts): in the file's order, an import and
 * a batch of views deadlocked.
 */
async function updateCards(
  cards: CardWriter,
  planned: { row: SheetRow; plan: RowPlan }[],
  audit: ImportAudit,
  brandOf: (name: string | null) => number | null,
) {
  const stored = new Map([...audit.cards.values()].map((card) => [card.id, card]));
  const updates = planned
    .map(({ plan }) => plan)
    .filter((plan): plan is Extract<RowPlan, { kind: "update" }> => plan.kind === "update")
    .sort((a, b) => compareIds(a.profileId, b.profileId));
  for (const plan of updates) {
    const changes = { ...plan.changes };
    if (plan.newBrand) changes.companyBrandId = brandOf(plan.newBrand);
    const before = stored.get(plan.profileId);
    await cards.update({ id: plan.profileId, label: before ? fullName(before) : plan.profileId }, changes, {
      changes: changedFields(before ?? null, changes),
    });
  }
}

/**
 * Sets the managers a file names (docs/decisions/020-bulk-import.md), once every
 * row is in, in the file's order, in the transaction that ends the import: a
 * stop before it commits leaves them all to the next run. A new card takes
 * its manager; an existing one only when the column was ticked. A manager
 * that is no card, deactivated, the person, or someone reporting to them is
 * refused with the same message as on the edit form, written on the row.
 */
async function applyManagers(
  tx: Queryable,
  importId: string,
  settings: ReturnType<typeof settingsOf>,
  allRows: SheetRow[],
  audit: Omit<ImportAudit, "cards">,
) {
  const managerIndex = settings.mapping.indexOf("manager");
  const emailIndex = settings.mapping.indexOf("email");
  if (managerIndex < 0 || emailIndex < 0) return;
  const stored = new Map(
    (
      await tx
        .select({ n: importRows.rowNumber, outcome: importRows.outcome, detail: importRows.detail })
        .from(importRows)
        .where(eq(importRows.importId, importId))
    ).map((row) => [row.n, row]),
  );
  const notes: { n: number; outcome: string; detail: string }[] = [];
  let movedToUpdated = 0;
  const author = { kind: "import", actor: audit.actor, fileName: audit.fileName } as const;
  await writeCards(
    author,
    async (cards) => {
      for (const row of allRows) {
        const text = row.cells[managerIndex]?.trim();
        const result = stored.get(row.rowNumber);
        if (!text || !result?.outcome || result.outcome === "error") continue;
        if (result.outcome !== "created" && !settings.overwrite.includes("manager")) continue;
        const [card] = await tx
          .select({
            id: profiles.id,
            managerId: profiles.managerId,
            firstName: profiles.firstName,
            lastName: profiles.lastName,
          })
          .from(profiles)
          .where(
            and(
              sql`lower(${profiles.email}) = ${(row.cells[emailIndex] ?? "").trim().toLowerCase()}`,
              // A brand administrator's file reaches their brands' cards only.
              managerChoices(audit.actor),
            ),
          );
        if (!card) continue;
        const joined = (note: string) => (result.detail ? `${result.detail}; ${note}` : note);
        let managerId: string | null;
        try {
          // A brand administrator's file names managers among their brands' people only.
          managerId = await resolveManager(tx, text, card.id, managerChoices(audit.actor));
        } catch (error) {
          if (!(error instanceof ValidationError)) throw error;
          const message = error.fieldErrors.manager?.[0] ?? "the manager could not be set";
          notes.push({ n: row.rowNumber, outcome: result.outcome, detail: joined(`no manager is set: ${message}`) });
          continue;
        }
        if (managerId === card.managerId) continue;
        const [before, after] = await managerNames(tx, card.managerId, managerId);
        await cards.update(
          { id: card.id, label: fullName(card) },
          { managerId },
          { changes: { manager: [before, after] } },
        );
        // A row that changed nothing else is now an update.
        const outcome = result.outcome === "unchanged" ? "updated" : result.outcome;
        if (result.outcome === "unchanged") movedToUpdated++;
        notes.push({
          n: row.rowNumber,
          outcome,
          detail: result.outcome === "unchanged" ? "Updates Manager" : joined(`reports to ${after}`),
        });
      }
    },
    tx,
  );
  if (notes.length) {
    await tx.execute(sql`
      update ${importRows} r set outcome = x.outcome, detail = x.detail
      from jsonb_to_recordset(${JSON.stringify(notes)}::jsonb) as x(n int, outcome text, detail text)
      where r.import_id = ${importId} and r.row_number = x.n`);
  }
  if (movedToUpdated) {
    await tx
      .update(imports)
      .set({
        updatedCards: sql`${imports.updatedCards} + ${movedToUpdated}`,
        unchangedRows: sql`${imports.unchangedRows} - ${movedToUpdated}`,
      })
      .where(eq(imports.id, importId));
  }
}

/** Imports the next batch of `importId`; returns whether rows were left. */
async function runBatch(
  importId: string,
  allRows: SheetRow[],
  options: RunOptions,
  batch: number,
  rows: number,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [record] = await tx.select().from(imports).where(eq(imports.id, importId)).for("update");
    if (record?.status !== "running") return false;
    const pending = await tx
      .select({ rowNumber: importRows.rowNumber, cells: importRows.cells })
      .from(importRows)
      .where(and(eq(importRows.importId, importId), isNull(importRows.outcome)))
      .orderBy(importRows.rowNumber)
      .limit(rows);
    if (pending.length === 0) {
      // Every row is in: managers can be found, whichever row of the file they are on.
      await applyManagers(tx, importId, settingsOf(record), allRows, {
        actor: await importActor(tx, record.createdBy),
        fileName: record.fileName,
      });
      await tx
        .update(imports)
        .set({ status: "done", finishedAt: new Date(), heartbeatAt: new Date() })
        .where(eq(imports.id, importId));
      return false;
    }
    const settings = settingsOf(record);
    const actor = await importActor(tx, record.createdBy);
    const context = await loadPlanContext(tx, pending, allRows, settings.mapping, importScope(actor));
    const planned = pending.map((row) => ({ row, plan: planRow(row, settings, context) }));
    await applyBatch(tx, planned, context.firstRowOfUsername.keys(), {
      actor,
      fileName: record.fileName,
      cards: context.cards,
    });
    const counts: BatchCounts = { created: 0, updated: 0, unchanged: 0, skipped: 0, failed: 0 };
    const outcomes = planned.map(({ row, plan }) => {
      const outcome = OUTCOME_OF[plan.kind];
      if (plan.kind === "create") counts.created++;
      else if (plan.kind === "update") counts.updated++;
      else if (plan.kind === "unchanged") counts.unchanged++;
      else if (plan.kind === "skip") counts.skipped++;
      else counts.failed++;
      return { n: row.rowNumber, outcome, detail: describePlan(plan) };
    });
    await tx.execute(sql`
      update ${importRows} r set outcome = x.outcome, detail = x.detail
      from jsonb_to_recordset(${JSON.stringify(outcomes)}::jsonb) as x(n int, outcome text, detail text)
      where r.import_id = ${importId} and r.row_number = x.n`);
    await tx
      .update(imports)
      .set({
        processedRows: sql`${imports.processedRows} + ${pending.length}`,
        createdCards: sql`${imports.createdCards} + ${counts.created}`,
        updatedCards: sql`${imports.updatedCards} + ${counts.updated}`,
        unchangedRows: sql`${imports.unchangedRows} + ${counts.unchanged}`,
        failedRows: sql`${imports.failedRows} + ${counts.failed}`,
        skippedRows: sql`${imports.skippedRows} + ${counts.skipped}`,
        heartbeatAt: new Date(),
      })
      .where(eq(imports.id, importId));
    await options.beforeCommit?.(batch);
    return true;
  });
}

/**
 * Takes the oldest queued import, or one left running by a server that
 * stopped, for this process (several instances on one PostgreSQL never take
 * the same one). Returns its id, or null when there is none.
 */
export async function claimNextImport(): Promise<string | null> {
  const result = await db.execute(sql`
    update ${imports} set status = 'running', heartbeat_at = now(), started_at = coalesce(started_at, now()), error = null
    where id = (
      select id from ${imports}
      where status = 'queued'
         or (status = 'running' and heartbeat_at < now() - ${sql.raw(`interval '${STALE_AFTER_SECONDS} seconds'`)})
      order by created_at
      limit 1
      for update skip locked)
    returning id`);
  const [row] = rowsOf(result) as { id: string }[];
  return row?.id ?? null;
}

/**
 * Runs a claimed import to its end (or until `shouldStop`). A failure leaves
 * the import "interrupted" with its cause; what was committed stays, and
 * running it again goes on from there.
 */
export async function runImport(importId: string, options: RunOptions & { shouldStop?: () => boolean } = {}) {
  try {
    const allRows = await sheetRows(importId);
    // On PostgreSQL other requests have connections of their own: batches stay at their largest.
    const paced = options.batchRows === undefined && getDatabaseHandle().kind === "pglite";
    let rows = options.batchRows ?? (paced ? FIRST_BATCH_ROWS : BATCH_ROWS);
    await refreshPlannerStatistics(importRows, profiles);
    for (let batch = 1; ; batch++) {
      if (options.shouldStop?.()) {
        // Stopped between batches: the next start takes it up at once (a read-only database keeps it
        // "running", which a start takes up too).
        if (diskSpaceLow()) return;
        await db
          .update(imports)
          .set({ status: "queued" })
          .where(and(eq(imports.id, importId), eq(imports.status, "running")));
        return;
      }
      if (options.maxBatches !== undefined && batch > options.maxBatches) return;
      const began = performance.now();
      const more = await runBatchWhenSpace(importId, options.shouldStop, () =>
        runBatchAgainOnConflict(() => runBatch(importId, allRows, options, batch, rows)),
      );
      if (more === "stopping") continue;
      if (!more) {
        await refreshPlannerStatistics(importRows, profiles);
        return;
      }
      if (batch % STATISTICS_EVERY_BATCHES === 0) await refreshPlannerStatistics(profiles);
      if (paced) rows = nextBatchRows(rows, performance.now() - began);
      await new Promise((resolve) => setTimeout(resolve, BATCH_PAUSE_MS));
    }
  } catch (error) {
    console.error(`[import] ${importId} stopped: ${databaseErrorLine(error)}`);
    await db
      .update(imports)
      .set({
        status: "interrupted",
        error: "The import stopped because of a server error. Rows already imported stay imported.",
      })
      .where(and(eq(imports.id, importId), inArray(imports.status, ["running"])))
      .catch(() => {});
  }
}

const SPACE_LOOK_EVERY_MS = 1_000;

/**
 * Runs a batch once DATA_DIR has room for it: while the embedded database
 * refuses changes for want of space (app/.server/platform/disk-space.ts), the import
 * waits between batches, and goes on by itself once space is back. A batch
 * refused because the disk ran low during it wrote nothing, and runs again.
 * "stopping" when the server stops meanwhile.
 */
async function runBatchWhenSpace(
  importId: string,
  shouldStop: (() => boolean) | undefined,
  run: () => Promise<boolean>,
): Promise<boolean | "stopping"> {
  let waiting = false;
  for (;;) {
    const low = diskSpaceLow();
    if (low) {
      if (!waiting) {
        console.warn(
          `[import] ${importId} waits for disk space: DATA_DIR has ${megabytes(low.freeBytes)} free, less than its reserve of ${megabytes(low.reserveBytes)}`,
        );
        waiting = true;
      }
      if (shouldStop?.()) return "stopping";
      await new Promise((resolve) => setTimeout(resolve, SPACE_LOOK_EVERY_MS));
      continue;
    }
    if (waiting) {
      console.info(`[import] ${importId} goes on: disk space is back`);
      waiting = false;
    }
    try {
      return await run();
    } catch (error) {
      if (!diskSpaceLow()) throw error;
    }
  }
}

/** How often a batch that PostgreSQL chose to end for a deadlock runs again before the import stops. */
const CONFLICT_RETRIES = 3;

/**
 * Runs a batch, and again when PostgreSQL ended it to break a deadlock: rows
 * are locked in one order (see compareIds), but a writer outside the import
 * (an edit, a script) may not be, and the batch wrote nothing.
 */
async function runBatchAgainOnConflict(run: () => Promise<boolean>): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (!isRetryableConflict(error) || attempt > CONFLICT_RETRIES) throw error;
      console.warn(`[import] a batch met a deadlock and runs again (${attempt} of ${CONFLICT_RETRIES})`);
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.random() * 100));
    }
  }
}

/** The rows of the next batch, so that it takes about `BATCH_TARGET_MS` if this one's pace holds. */
function nextBatchRows(rows: number, tookMs: number): number {
  const paced = Math.round((rows * BATCH_TARGET_MS) / Math.max(tookMs, 1));
  // At most doubled at a time: one quick batch of cached rows says little of the next.
  return Math.max(MIN_BATCH_ROWS, Math.min(BATCH_ROWS, paced, rows * 2));
}

/** Runs every waiting import, one after another; returns how many ran. */
export async function runPendingImports(options: RunOptions & { shouldStop?: () => boolean } = {}): Promise<number> {
  let count = 0;
  for (;;) {
    if (options.shouldStop?.()) return count;
    const id = await claimNextImport();
    if (!id) return count;
    await runImport(id, options);
    count++;
  }
}

// ── The worker of this server process ──────────────────────────────────────

/** Whether this process runs imports (the server does; scripts and tests run them by hand). */
let started = false;
let stopping = false;
let timer: ReturnType<typeof setTimeout> | undefined;
let current: Promise<void> | null = null;

function schedule(delay: number) {
  if (stopping) return;
  clearTimeout(timer);
  timer = setTimeout(() => {
    if (current) return schedule(POLL_MS);
    current = runPendingImports({ shouldStop: () => stopping })
      .then(() => undefined)
      .catch((error: unknown) => console.error(`[import] the worker failed: ${databaseErrorLine(error)}`))
      .finally(() => {
        current = null;
        schedule(POLL_MS);
      });
  }, delay);
  timer.unref();
}

/**
 * Starts this process's worker. On the embedded database this process is the
 * only one, so an import still marked running was left by the previous start
 * and is taken up at once instead of after its heartbeat goes stale.
 */
export async function startImportWorker(options: { soleInstance: boolean }) {
  started = true;
  stopping = false;
  if (options.soleInstance) {
    await db.update(imports).set({ status: "queued" }).where(eq(imports.status, "running"));
  }
  schedule(0);
}

/** Asks the worker to look for work now (an import was just queued here). */
export function wakeImportWorker() {
  if (started && !stopping && !current) schedule(0);
}

/** Lets the batch in progress commit, then stops. */
export async function stopImportWorker() {
  stopping = true;
  started = false;
  clearTimeout(timer);
  await current;
}
