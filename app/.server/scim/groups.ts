import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { can } from "~/lib/permissions";
import { recordAdminAction } from "../audit/record";
import type { Actor } from "../platform/actor";
import { db, type Queryable, rowsOf } from "../platform/db/client";
import { brands, scimGroupMembers, scimGroups, scimUsers } from "../platform/db/schema";
import { ForbiddenError, NotFoundError } from "../platform/errors";
import { type CardWriter, cardLabel, writeCards } from "../profiles/card-writer";
import { operationsOf } from "./attributes";
import type { Connection } from "./connections";
import { asConnection, LIST_SCHEMA, RESOURCE_ID, type ScimContext } from "./context";
import { notFound, ScimError } from "./errors";
import { type Condition, pagingOf, parseFilter } from "./filter";

/**
 * SCIM Groups (RFC 7643 §4.2). A provider assigns people to groups; an
 * administrator may map a group to a brand, and then its members' cards carry
 * that brand (docs/decisions/032-scim-provisioning.md). Someone in several
 * mapped groups takes the first by name; someone who leaves every mapped group
 * loses a brand that one of them gave.
 */

export const GROUP_SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group";
const MAX_MEMBERS_PER_REQUEST = 10_000;

type ScimGroup = typeof scimGroups.$inferSelect;

/**
 * Gives the cards of these people the brand their mapped groups say. `released`
 * are brands a group no longer gives (it was deleted or unmapped): a card
 * carrying one, in no mapped group, loses it.
 */
export async function syncBrands(cards: CardWriter, userIds: readonly string[], released: readonly number[] = []) {
  if (userIds.length === 0) return;
  const ids = JSON.stringify(userIds);
  const rows = rowsOf(
    await cards.tx.execute(sql`
      select p.id, p.first_name as "firstName", p.last_name as "lastName", p.username,
        p.company_brand_id as "brandId",
        (select g.brand_id from ${scimGroupMembers} m join ${scimGroups} g on g.id = m.group_id
          where m.user_id = u.id and g.brand_id is not null order by lower(g.display_name), g.id limit 1) as "wanted",
        exists (select 1 from ${scimGroups} g where g.connection_id = u.connection_id and g.brand_id = p.company_brand_id)
          as "mappedBrand"
      from ${scimUsers} u join profiles p on p.id = u.profile_id
      where u.id in (select (jsonb_array_elements_text(${ids}::jsonb))::uuid)
      order by p.id`),
  ) as {
    id: string;
    firstName: string;
    lastName: string;
    username: string;
    brandId: number | null;
    wanted: number | null;
    mappedBrand: boolean;
  }[];
  for (const row of rows) {
    const releasable = row.mappedBrand || (row.brandId !== null && released.includes(row.brandId));
    const next = row.wanted ?? (releasable ? null : row.brandId);
    if (next === row.brandId) continue;
    await cards.update({ id: row.id, label: cardLabel(row) }, { companyBrandId: next });
  }
}

async function membersOf(tx: Queryable, groupIds: string[]) {
  if (groupIds.length === 0) return new Map<string, { value: string; display: string }[]>();
  const rows = await tx
    .select({ groupId: scimGroupMembers.groupId, userId: scimGroupMembers.userId, userName: scimUsers.userName })
    .from(scimGroupMembers)
    .innerJoin(scimUsers, eq(scimUsers.id, scimGroupMembers.userId))
    .where(inArray(scimGroupMembers.groupId, groupIds))
    .orderBy(asc(scimUsers.userName));
  const members = new Map<string, { value: string; display: string }[]>();
  for (const row of rows) {
    const list = members.get(row.groupId) ?? [];
    list.push({ value: row.userId, display: row.userName });
    members.set(row.groupId, list);
  }
  return members;
}

function groupResource(group: ScimGroup, members: { value: string; display: string }[] | null, baseUrl: string) {
  return {
    schemas: [GROUP_SCHEMA],
    id: group.id,
    displayName: group.displayName,
    ...(group.externalId ? { externalId: group.externalId } : {}),
    ...(members ? { members: members.map((member) => ({ ...member, $ref: `${baseUrl}/Users/${member.value}` })) } : {}),
    meta: {
      resourceType: "Group",
      created: group.createdAt.toISOString(),
      lastModified: group.updatedAt.toISOString(),
      location: `${baseUrl}/Groups/${group.id}`,
      version: `W/"${group.version}"`,
    },
  };
}

const withoutMembers = (query: URLSearchParams) =>
  /(^|,)\s*members\s*(,|$)/i.test(query.get("excludedAttributes") ?? "");

function displayNameOf(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "")
    throw new ScimError(400, "displayName is required.", "invalidValue");
  if (value.length > 255) throw new ScimError(400, "displayName may be at most 255 characters.", "invalidValue");
  return value.trim();
}

function externalIdOf(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string" || value.length > 255)
    throw new ScimError(400, "externalId must be a string.", "invalidValue");
  return value;
}

/** The member ids a value lists (`[{ value }]`); ids of nobody this connection provisioned are left out. */
async function memberIds(tx: Queryable, connection: Connection, value: unknown): Promise<string[]> {
  const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  if (items.length > MAX_MEMBERS_PER_REQUEST) {
    throw new ScimError(400, `At most ${MAX_MEMBERS_PER_REQUEST} members per request.`, "tooMany");
  }
  const ids = items
    .map((item) => (item && typeof item === "object" ? (item as { value?: unknown }).value : item))
    .filter((id): id is string => typeof id === "string" && RESOURCE_ID.test(id));
  if (ids.length === 0) return [];
  const known = await tx
    .select({ id: scimUsers.id })
    .from(scimUsers)
    .where(and(eq(scimUsers.connectionId, connection.id), inArray(scimUsers.id, [...new Set(ids)])))
    // Held until the membership is written: a person deleted meanwhile waits, and is not half a member.
    .for("key share");
  return known.map((row) => row.id);
}

async function lockedGroup(tx: Queryable, context: ScimContext, id: string): Promise<ScimGroup> {
  if (!RESOURCE_ID.test(id)) throw notFound("Group", id);
  const [group] = await tx
    .select()
    .from(scimGroups)
    .where(and(eq(scimGroups.id, id), eq(scimGroups.connectionId, context.connection.id)))
    .for("update");
  if (!group) throw notFound("Group", id);
  return group;
}

function asGroupConnection<T>(context: ScimContext, work: (cards: CardWriter) => Promise<T>): Promise<T> {
  return asConnection(context, work, "A group with this displayName exists already.");
}

async function addMembers(tx: Queryable, groupId: string, userIds: string[]) {
  if (userIds.length === 0) return;
  await tx
    .insert(scimGroupMembers)
    .values(userIds.map((userId) => ({ groupId, userId })))
    .onConflictDoNothing();
}

async function removeMembers(tx: Queryable, groupId: string, userIds: string[] | "all"): Promise<string[]> {
  const removed = await tx
    .delete(scimGroupMembers)
    .where(
      userIds === "all"
        ? eq(scimGroupMembers.groupId, groupId)
        : and(eq(scimGroupMembers.groupId, groupId), inArray(scimGroupMembers.userId, userIds.length ? userIds : [""])),
    )
    .returning({ userId: scimGroupMembers.userId });
  return removed.map((row) => row.userId);
}

export async function createGroup(context: ScimContext, body: Record<string, unknown>) {
  const displayName = displayNameOf(body.displayName);
  const externalId = externalIdOf(body.externalId);
  const group = await asGroupConnection(context, async (cards) => {
    const [row] = await cards.tx
      .insert(scimGroups)
      .values({ connectionId: context.connection.id, displayName, externalId })
      .returning();
    if (!row) throw new Error("Inserting the group returned no row");
    const members = await memberIds(cards.tx, context.connection, body.members);
    await addMembers(cards.tx, row.id, members);
    return row;
  });
  return groupResource(group, (await membersOf(db, [group.id])).get(group.id) ?? [], context.baseUrl);
}

export async function getGroup(context: ScimContext, id: string, query: URLSearchParams) {
  if (!RESOURCE_ID.test(id)) throw notFound("Group", id);
  const [group] = await db
    .select()
    .from(scimGroups)
    .where(and(eq(scimGroups.id, id), eq(scimGroups.connectionId, context.connection.id)));
  if (!group) throw notFound("Group", id);
  const members = withoutMembers(query) ? null : ((await membersOf(db, [group.id])).get(group.id) ?? []);
  return groupResource(group, members, context.baseUrl);
}

function conditionSql(condition: Condition): SQL {
  const text = condition.value === null ? null : String(condition.value);
  switch (condition.attribute) {
    case "displayName":
      return text === null ? sql`false` : sql`lower(${scimGroups.displayName}) = ${text.toLowerCase()}`;
    case "externalId":
      return text === null ? sql`${scimGroups.externalId} is null` : eq(scimGroups.externalId, text);
    case "id":
      return text !== null && RESOURCE_ID.test(text) ? eq(scimGroups.id, text) : sql`false`;
    case "members.value":
      return text !== null && RESOURCE_ID.test(text)
        ? sql`exists (select 1 from ${scimGroupMembers} m where m.group_id = ${scimGroups.id} and m.user_id = ${text})`
        : sql`false`;
    default:
      throw new ScimError(400, `Groups cannot be filtered by ${condition.attribute}.`, "invalidFilter");
  }
}

export async function listGroups(context: ScimContext, query: URLSearchParams) {
  const filter = query.get("filter");
  const where = and(
    eq(scimGroups.connectionId, context.connection.id),
    ...(filter ? parseFilter(filter).map(conditionSql) : []),
  );
  const { offset, limit } = pagingOf(query.get("startIndex"), query.get("count"));
  const [total, rows] = await Promise.all([
    db.select({ count: sql<number>`count(*)::int` }).from(scimGroups).where(where),
    limit === 0
      ? Promise.resolve([])
      : db
          .select()
          .from(scimGroups)
          .where(where)
          .orderBy(asc(scimGroups.createdAt), asc(scimGroups.id))
          .offset(offset)
          .limit(limit),
  ]);
  const members = withoutMembers(query)
    ? null
    : await membersOf(
        db,
        rows.map((row) => row.id),
      );
  return {
    schemas: [LIST_SCHEMA],
    totalResults: total[0]?.count ?? 0,
    startIndex: offset + 1,
    itemsPerPage: rows.length,
    Resources: rows.map((row) => groupResource(row, members ? (members.get(row.id) ?? []) : null, context.baseUrl)),
  };
}

async function touch(tx: Queryable, group: ScimGroup, values: Partial<Pick<ScimGroup, "displayName" | "externalId">>) {
  await tx
    .update(scimGroups)
    .set({ ...values, version: sql`${scimGroups.version} + 1`, updatedAt: new Date() })
    .where(eq(scimGroups.id, group.id));
}

export async function replaceGroup(context: ScimContext, id: string, body: Record<string, unknown>) {
  const displayName = displayNameOf(body.displayName);
  const externalId = externalIdOf(body.externalId);
  await asGroupConnection(context, async (cards) => {
    const group = await lockedGroup(cards.tx, context, id);
    const wanted = await memberIds(cards.tx, context.connection, body.members);
    const removed = await removeMembers(cards.tx, group.id, "all");
    await addMembers(cards.tx, group.id, wanted);
    await touch(cards.tx, group, { displayName, externalId });
    await syncBrands(cards, [...new Set([...removed, ...wanted])]);
  });
  return await getGroup(context, id, new URLSearchParams());
}

const CORE_GROUP = /^urn:ietf:params:scim:schemas:core:2\.0:Group:/i;
const MEMBER_PATH = /^members\[\s*value\s+eq\s+"([^"]*)"\s*\]$/i;

/** PATCH of a group: renames and membership changes, as Microsoft and Okta write them; answered 204. */
export async function patchGroup(context: ScimContext, id: string, body: Record<string, unknown>) {
  const operations = operationsOf(body);
  await asGroupConnection(context, async (cards) => {
    const group = await lockedGroup(cards.tx, context, id);
    const touched = new Set<string>();
    const values: Partial<Pick<ScimGroup, "displayName" | "externalId">> = {};
    const change = async (op: string, path: string, value: unknown) => {
      const name = path.toLowerCase();
      const single = MEMBER_PATH.exec(path);
      if (single) {
        if (op !== "remove") throw new ScimError(400, "Members are added with the path members.", "invalidPath");
        const memberId = single[1] as string;
        if (RESOURCE_ID.test(memberId))
          for (const userId of await removeMembers(cards.tx, group.id, [memberId])) touched.add(userId);
      } else if (name === "members") {
        if (op === "replace") for (const userId of await removeMembers(cards.tx, group.id, "all")) touched.add(userId);
        if (op === "remove") {
          const removing = value === undefined ? "all" : await memberIds(cards.tx, context.connection, value);
          for (const userId of await removeMembers(cards.tx, group.id, removing)) touched.add(userId);
        } else {
          const adding = await memberIds(cards.tx, context.connection, value);
          await addMembers(cards.tx, group.id, adding);
          for (const userId of adding) touched.add(userId);
        }
      } else if (name === "displayname") {
        if (op === "remove") throw new ScimError(400, "displayName cannot be removed.", "mutability");
        values.displayName = displayNameOf(value);
      } else if (name === "externalid") {
        values.externalId = op === "remove" ? null : externalIdOf(value);
      }
      // Anything else a provider sends of a group (its id, its schemas) is not kept.
    };
    for (const { op, path, value } of operations) {
      if (path) {
        await change(op, path.replace(CORE_GROUP, ""), value);
      } else if (value && typeof value === "object" && !Array.isArray(value)) {
        const entries = Object.entries(value);
        if (entries.length > MAX_MEMBERS_PER_REQUEST) {
          throw new ScimError(400, `At most ${MAX_MEMBERS_PER_REQUEST} changes per operation.`, "tooMany");
        }
        for (const [key, inner] of entries) await change(op, key.replace(CORE_GROUP, ""), inner);
      } else {
        throw new ScimError(400, "An operation without a path needs an object value.", "invalidSyntax");
      }
    }
    await touch(cards.tx, group, values);
    await syncBrands(cards, [...touched]);
  });
}

export async function deleteGroup(context: ScimContext, id: string) {
  await asGroupConnection(context, async (cards) => {
    const group = await lockedGroup(cards.tx, context, id);
    const removed = await removeMembers(cards.tx, group.id, "all");
    await cards.tx.delete(scimGroups).where(eq(scimGroups.id, group.id));
    await syncBrands(cards, removed, group.brandId === null ? [] : [group.brandId]);
  });
}

/** An administrator maps a group to a brand (or to none): its members' cards follow at once. */
export async function mapGroupToBrand(actor: Actor, groupId: string, brandId: number | null) {
  if (!can(actor.role, "update:settings:any")) throw new ForbiddenError();
  await writeCards({ kind: "administrator", actor }, async (cards) => {
    const [group] = RESOURCE_ID.test(groupId)
      ? await cards.tx.select().from(scimGroups).where(eq(scimGroups.id, groupId)).for("update")
      : [];
    if (!group) throw new NotFoundError("group");
    if (group.brandId === brandId) return;
    const [brand] = brandId === null ? [null] : await cards.tx.select().from(brands).where(eq(brands.id, brandId));
    if (brand === undefined) throw new NotFoundError("brand");
    const [before] =
      group.brandId === null
        ? [null]
        : await cards.tx.select({ name: brands.name }).from(brands).where(eq(brands.id, group.brandId));
    await cards.tx.update(scimGroups).set({ brandId }).where(eq(scimGroups.id, group.id));
    await recordAdminAction(cards.tx, {
      actor,
      action: "map",
      target: { kind: "group", id: group.id, label: group.displayName },
      changes: { brand: [before?.name ?? null, brand?.name ?? null] },
    });
    const members = await cards.tx
      .select({ userId: scimGroupMembers.userId })
      .from(scimGroupMembers)
      .where(eq(scimGroupMembers.groupId, group.id));
    await syncBrands(
      cards,
      members.map((member) => member.userId),
      group.brandId === null ? [] : [group.brandId],
    );
  });
}
