import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { z } from "zod";
import { can } from "~/lib/permissions";
import { CONNECTION_PREFIX, recordAdminAction } from "../audit/record";
import type { Actor } from "../platform/actor";
import { isDatabaseUnavailable } from "../platform/db/availability";
import { db } from "../platform/db/client";
import { auditLog, brands, scimConnections, scimErrors, scimGroups, scimUsers } from "../platform/db/schema";
import { ForbiddenError, NotFoundError, ValidationError } from "../platform/errors";
import { TextSchema } from "../platform/validation";

/**
 * Provisioning connections (docs/decisions/032-scim-provisioning.md): each is
 * one identity provider's bearer token. The token is shown once, when it is
 * made; only its SHA-256 is stored, so neither the database nor a backup can
 * give it back. A 256-bit random token needs no slow hash: nothing can be
 * guessed from its digest.
 */

/** What a connection acts as in the audit log and in the card writer. */
export type Connection = { id: string; name: string };

const TOKEN_PREFIX = "namecard_scim_";

function digest(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** A name is shown in the audit log next to people's: short and plain. */
const ConnectionNameSchema = TextSchema("Name").pipe(
  z.string().min(1, "Enter a name, such as the provider's").max(60, "Keep the name under 60 characters"),
);

/** Makes a connection; returns its token, which is never available again. */
export async function createConnection(actor: Actor, name: string): Promise<{ connection: Connection; token: string }> {
  if (!can(actor.role, "update:settings:any")) throw new ForbiddenError();
  const parsed = ConnectionNameSchema.safeParse(name);
  if (!parsed.success) throw new ValidationError({ name: [parsed.error.issues[0]?.message ?? "Enter a name"] });
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  const connection = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(scimConnections)
      .values({ name: parsed.data, tokenHash: digest(token), createdBy: actor.user.id })
      .returning({ id: scimConnections.id, name: scimConnections.name });
    if (!row) throw new Error("Inserting the connection returned no row");
    await recordAdminAction(tx, {
      actor,
      action: "create",
      target: { kind: "provisioning", id: row.id, label: row.name },
      changes: { name: [null, row.name] },
    });
    return row;
  });
  return { connection, token };
}

/** Revokes a connection at once: its token answers 401 from the next request. Its people and their cards stay. */
export async function revokeConnection(actor: Actor, id: string): Promise<Connection> {
  if (!can(actor.role, "update:settings:any")) throw new ForbiddenError();
  return await db.transaction(async (tx) => {
    const [row] = await tx
      .update(scimConnections)
      .set({ revokedAt: new Date() })
      .where(and(eq(scimConnections.id, id), isNull(scimConnections.revokedAt)))
      .returning({ id: scimConnections.id, name: scimConnections.name });
    if (!row) throw new NotFoundError("connection");
    await recordAdminAction(tx, {
      actor,
      action: "revoke",
      target: { kind: "provisioning", id: row.id, label: row.name },
    });
    return row;
  });
}

/** How often a connection's last use is written: not on every request of a sync of thousands. */
const LAST_USED_EVERY_MS = 60_000;

/** The live connection a bearer token belongs to, or null. */
export async function connectionOfToken(token: string): Promise<Connection | null> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return null;
  const [row] = await db
    .select({ id: scimConnections.id, name: scimConnections.name, lastUsedAt: scimConnections.lastUsedAt })
    .from(scimConnections)
    .where(and(eq(scimConnections.tokenHash, digest(token)), isNull(scimConnections.revokedAt)));
  if (!row) return null;
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > LAST_USED_EVERY_MS) {
    await db
      .update(scimConnections)
      .set({ lastUsedAt: new Date() })
      .where(
        and(
          eq(scimConnections.id, row.id),
          or(isNull(scimConnections.lastUsedAt), lt(scimConnections.lastUsedAt, sql`now() - interval '1 minute'`)),
        ),
      )
      // A convenience for the settings screen: a database that takes no changes now (a full disk) still answers reads.
      .catch((error: unknown) => {
        if (!isDatabaseUnavailable(error)) throw error;
      });
  }
  return { id: row.id, name: row.name };
}

/** How many refused requests are kept per connection. */
const KEPT_ERRORS = 50;

/** Keeps a refused request of a connection for its administrator (never its body: it may hold people's data). */
export async function recordConnectionError(
  connection: Connection,
  request: { method: string; path: string; status: number; detail: string },
) {
  await db.insert(scimErrors).values({
    connectionId: connection.id,
    method: request.method.slice(0, 10),
    path: request.path.slice(0, 300),
    status: request.status,
    detail: request.detail.slice(0, 500),
  });
  await db.execute(sql`
    delete from ${scimErrors} where ${scimErrors.connectionId} = ${connection.id} and ${scimErrors.id} not in (
      select ${scimErrors.id} from ${scimErrors} where ${scimErrors.connectionId} = ${connection.id}
      order by ${scimErrors.id} desc limit ${KEPT_ERRORS})`);
}

/** The connections for the settings screen, with their people, recent activity and errors. */
export async function listConnections() {
  const connections = await db
    .select({
      id: scimConnections.id,
      name: scimConnections.name,
      createdAt: scimConnections.createdAt,
      lastUsedAt: scimConnections.lastUsedAt,
      revokedAt: scimConnections.revokedAt,
    })
    .from(scimConnections)
    .orderBy(sql`${scimConnections.revokedAt} is not null`, desc(scimConnections.createdAt));
  const ids = connections.map((connection) => connection.id);
  if (ids.length === 0) return [];
  const [people, activity, errors, groups] = await Promise.all([
    db
      .select({ connectionId: scimUsers.connectionId, count: sql<number>`count(*)::int` })
      .from(scimUsers)
      .where(inArray(scimUsers.connectionId, ids))
      .groupBy(scimUsers.connectionId),
    db
      .select({
        email: auditLog.actorEmail,
        at: auditLog.createdAt,
        action: auditLog.action,
        label: auditLog.targetLabel,
      })
      .from(auditLog)
      .where(
        inArray(
          auditLog.actorEmail,
          ids.map((id) => `${CONNECTION_PREFIX}${id}`),
        ),
      )
      .orderBy(desc(auditLog.id))
      .limit(10 * ids.length),
    db
      .select({
        connectionId: scimErrors.connectionId,
        at: scimErrors.createdAt,
        method: scimErrors.method,
        path: scimErrors.path,
        status: scimErrors.status,
        detail: scimErrors.detail,
      })
      .from(scimErrors)
      .where(inArray(scimErrors.connectionId, ids))
      .orderBy(desc(scimErrors.id))
      .limit(10 * ids.length),
    db
      .select({
        id: scimGroups.id,
        connectionId: scimGroups.connectionId,
        name: scimGroups.displayName,
        brandId: scimGroups.brandId,
        brandName: brands.name,
      })
      .from(scimGroups)
      .leftJoin(brands, eq(brands.id, scimGroups.brandId))
      .where(inArray(scimGroups.connectionId, ids))
      .orderBy(scimGroups.displayName),
  ]);
  return connections.map((connection) => ({
    ...connection,
    people: people.find((row) => row.connectionId === connection.id)?.count ?? 0,
    activity: activity.filter((entry) => entry.email === `${CONNECTION_PREFIX}${connection.id}`).slice(0, 10),
    errors: errors.filter((entry) => entry.connectionId === connection.id).slice(0, 10),
    groups: groups.filter((group) => group.connectionId === connection.id),
  }));
}
