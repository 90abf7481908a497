import type { AuditAction, AuditTargetKind } from "~/lib/audit";
import { IMAGE_NEW, IMAGE_SET } from "~/lib/audit";
import type { Actor } from "../platform/actor";
import type { Queryable } from "../platform/db/client";
import { auditLog } from "../platform/db/schema";

/** Each changed field as [old, new]. */
export type AuditChanges = Record<string, [unknown, unknown]>;

/** A provisioning connection (SCIM), which writes cards in the company's identity provider's name. */
export type ConnectionAuthor = { connection: { id: string; name: string } };

/** Who an entry names: a person's account, or a provisioning connection. */
type AuditAuthor = Actor | ConnectionAuthor;

/** How an entry names a connection where it names a person's address: one value per connection, for the filter. */
export const CONNECTION_PREFIX = "scim:";

export type AdminActionEntry = {
  actor: AuditAuthor;
  action: AuditAction;
  target: { kind: AuditTargetKind; id: string | number | null; label: string };
  changes?: AuditChanges;
  /** The bulk action the entry is one card of: the log shows a batch's entries as one row. */
  batch?: string;
};

/** Fields no entry may ever hold, whatever a caller passes. */
const NEVER_RECORDED = /password|secret|token|hash/i;

/**
 * Records what an administrator (or a provisioning connection) did. Call it with the transaction that makes
 * the change, so that the change and its entry are written together or not at
 * all (docs/decisions/019-deactivation-and-audit-log.md).
 */
export async function recordAdminAction(
  tx: Queryable,
  { actor, action, target, changes = {}, batch }: AdminActionEntry,
) {
  const kept = Object.fromEntries(Object.entries(changes).filter(([field]) => !NEVER_RECORDED.test(field)));
  const author =
    "connection" in actor
      ? { actorId: null, actorName: actor.connection.name, actorEmail: `${CONNECTION_PREFIX}${actor.connection.id}` }
      : { actorId: actor.user.id, actorName: actor.user.name, actorEmail: actor.user.email };
  await tx.insert(auditLog).values({
    ...author,
    action,
    targetKind: target.kind,
    targetId: target.id === null ? null : String(target.id),
    targetLabel: target.label,
    changes: kept,
    batchId: batch ?? null,
  });
}

/** A long text (terms, a bio) is kept to its beginning and its length. */
const MAX_VALUE_LENGTH = 300;

function kept(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "string" && value.length > MAX_VALUE_LENGTH) {
    return `${value.slice(0, MAX_VALUE_LENGTH)}… (${value.length} characters)`;
  }
  return value ?? null;
}

function same(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  // Lists and objects (a card's links, its visibilities) are compared by what they hold.
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null) {
    return JSON.stringify(a) === JSON.stringify(b);
  }
  return (a ?? null) === (b ?? null);
}

/**
 * The fields of `after` whose value differs from `before`, as [old, new].
 * Fields named in `images` record only that the image changed.
 */
export function changedFields<T extends Record<string, unknown>>(
  before: Partial<T> | null,
  after: Partial<T>,
  images: readonly (keyof T)[] = [],
): AuditChanges {
  const changes: AuditChanges = {};
  for (const [field, next] of Object.entries(after)) {
    const previous = before ? before[field] : null;
    if (same(previous, next)) continue;
    if (images.includes(field as keyof T)) {
      changes[field] = [previous ? IMAGE_SET : null, next ? IMAGE_NEW : null];
    } else {
      changes[field] = [kept(previous), kept(next)];
    }
  }
  return changes;
}
