import { and, desc, eq, gte, inArray, lt, ne, or, type SQL, sql } from "drizzle-orm";
import { type AuditAction, isAuditAction } from "~/lib/audit";
import { reachOf } from "../access/scope";
import type { Actor } from "../platform/actor";
import { db } from "../platform/db/client";
import { auditLog, brands, profiles } from "../platform/db/schema";
import { ValidationError } from "../platform/errors";
import { parseListFilters, parseSearchText } from "../platform/validation";

const AUDIT_PAGE_SIZE = 25;
/** The export's limit: far more than a company's administrators do in years. */
const MAX_EXPORT_ROWS = 100_000;

export type AuditQuery = {
  /** Text in the target's label or id. */
  q: string;
  action: AuditAction | null;
  /** An actor's address, as the filter lists them. */
  actor: string;
  /** Entries about one brand and its cards (as they are now), or about everything. */
  brand: number | null;
  /** YYYY-MM-DD, inclusive (UTC). */
  from: string;
  to: string;
  page: number;
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function parseDay(value: string): Date | null {
  if (!DAY.test(value)) return null;
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value ? null : date;
}

/** Reads the audit screen's filters; a malformed one throws a ValidationError (a 400 naming it). */
export function parseAuditQuery(url: URL): AuditQuery {
  const { page } = parseListFilters(url);
  const q = parseSearchText(url);
  const params = url.searchParams;
  const errors: Record<string, string[]> = {};
  const actionText = params.get("action") ?? "";
  if (actionText !== "" && !isAuditAction(actionText)) errors.action = ["Choose an action from the list."];
  const actor = (params.get("actor") ?? "").trim().slice(0, 254);
  if ([...actor].some((char) => char.charCodeAt(0) < 32 || char.charCodeAt(0) === 127))
    errors.actor = ["Choose an administrator from the list."];
  const brandText = params.get("brand") ?? "";
  if (brandText !== "" && !/^[1-9][0-9]{0,9}$/.test(brandText)) errors.brand = ["Choose a brand from the list."];
  const from = params.get("from") ?? "";
  const to = params.get("to") ?? "";
  if (from !== "" && !parseDay(from)) errors.from = ["Use a date such as 2026-01-31 for “From”."];
  if (to !== "" && !parseDay(to)) errors.to = ["Use a date such as 2026-01-31 for “To”."];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return {
    q,
    action: isAuditAction(actionText) ? actionText : null,
    actor,
    brand: brandText ? Number(brandText) : null,
    from,
    to,
    page,
  };
}

function conditions(query: AuditQuery): SQL | undefined {
  const parts: SQL[] = [];
  if (query.action) parts.push(eq(auditLog.action, query.action));
  if (query.actor) parts.push(sql`lower(${auditLog.actorEmail}) = ${query.actor.toLowerCase()}`);
  if (query.brand !== null)
    parts.push(aboutBrands(eq(profiles.companyBrandId, query.brand), eq(brands.id, query.brand)));
  if (query.q) {
    const pattern = `%${query.q.replace(/[\\%_]/g, "\\$&")}%`;
    parts.push(or(sql`${auditLog.targetLabel} ilike ${pattern}`, sql`${auditLog.targetId} ilike ${pattern}`)!);
  }
  const from = parseDay(query.from);
  const to = parseDay(query.to);
  if (from) parts.push(gte(auditLog.createdAt, from));
  if (to) parts.push(lt(auditLog.createdAt, new Date(to.getTime() + 86_400_000)));
  return parts.length ? and(...parts) : undefined;
}

const ENTRY = {
  id: auditLog.id,
  createdAt: auditLog.createdAt,
  actorName: auditLog.actorName,
  actorEmail: auditLog.actorEmail,
  action: auditLog.action,
  targetKind: auditLog.targetKind,
  targetId: auditLog.targetId,
  targetLabel: auditLog.targetLabel,
  changes: auditLog.changes,
};

/**
 * The entries within reach: every entry for an administrator; for a brand
 * administrator, those about their brands and their brands' cards as they
 * are now (an entry about a card deleted since, or moved out, is not theirs).
 */
export function entriesWithin(actor: Actor): SQL {
  if (actor.role === "admin") return sql`true`;
  const { cards, brands: brandRows } = reachOf(actor);
  return aboutBrands(cards, brandRows);
}

/** Entries about the cards `cards` selects (as they are now) or the brands `brandRows` selects. */
function aboutBrands(cards: SQL, brandRows: SQL): SQL {
  return or(
    and(
      eq(auditLog.targetKind, "profile"),
      sql`${auditLog.targetId} in (select ${profiles.id}::text from ${profiles} where ${cards})`,
    ),
    and(
      eq(auditLog.targetKind, "brand"),
      sql`${auditLog.targetId} in (select ${brands.id}::text from ${brands} where ${brandRows})`,
    ),
  )!;
}

/**
 * One page of the entries within reach (`entriesWithin`), newest first, with
 * how many rows match. The entries of one bulk action (a shared batch) are
 * one row: its first matching entry, with the others under `more`.
 */
export async function listAuditEntries(within: SQL, query: AuditQuery) {
  const where = and(within, conditions(query));
  const group = sql`coalesce(${auditLog.batchId}::text, ${auditLog.id}::text)`;
  const matching = db.$with("matching").as(
    db
      .select({
        ...ENTRY,
        batchId: auditLog.batchId,
        first: sql<number>`row_number() over (partition by ${group} order by ${auditLog.id})`.as("first"),
      })
      .from(auditLog)
      .where(where),
  );
  const [count] = await db
    .with(matching)
    .select({ shown: sql<number>`count(*)::int` })
    .from(matching)
    .where(eq(matching.first, 1));
  const shown = count?.shown ?? 0;
  const pageCount = Math.max(1, Math.ceil(shown / AUDIT_PAGE_SIZE));
  const page = Math.min(query.page, pageCount);
  const heads = await db
    .with(matching)
    .select()
    .from(matching)
    .where(eq(matching.first, 1))
    .orderBy(desc(matching.createdAt), desc(matching.id))
    .limit(AUDIT_PAGE_SIZE)
    .offset((page - 1) * AUDIT_PAGE_SIZE);
  const batches = heads.flatMap((head) => (head.batchId ? [head.batchId] : []));
  const others = batches.length
    ? await db
        .select({ ...ENTRY, batchId: auditLog.batchId })
        .from(auditLog)
        .where(and(where, inArray(auditLog.batchId, batches)))
        .orderBy(auditLog.id)
    : [];
  const rows = heads.map(({ first: _first, batchId, ...head }) => ({
    ...head,
    more: batchId ? others.filter((entry) => entry.batchId === batchId && entry.id !== head.id) : [],
  }));
  return { rows, shown, page, pageCount };
}

/** Every matching entry within reach, newest first, for the CSV. */
export async function auditEntriesForExport(within: SQL, query: AuditQuery) {
  return db
    .select(ENTRY)
    .from(auditLog)
    .where(and(within, conditions(query)))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(MAX_EXPORT_ROWS);
}

/** The administrators who appear in the entries within reach, for the actor filter. */
export async function auditActors(within: SQL) {
  return db
    .selectDistinctOn([auditLog.actorEmail], { email: auditLog.actorEmail, name: auditLog.actorName })
    .from(auditLog)
    .where(within)
    .orderBy(auditLog.actorEmail, desc(auditLog.createdAt))
    .limit(200);
}

/**
 * When an administrator other than the card's owner last changed the card, or
 * null: what the member's own edit page tells them.
 */
export async function lastAdminChange(profileId: string, ownerUserId: string | null): Promise<Date | null> {
  const [row] = await db
    .select({ createdAt: auditLog.createdAt })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.targetKind, "profile"),
        eq(auditLog.targetId, profileId),
        ownerUserId ? or(ne(auditLog.actorId, ownerUserId), sql`${auditLog.actorId} is null`) : undefined,
      ),
    )
    .orderBy(desc(auditLog.createdAt))
    .limit(1);
  return row?.createdAt ?? null;
}
