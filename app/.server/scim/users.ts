import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import { CARD_FIELD_KEYS, CARD_FIELDS } from "~/lib/card-fields";
import { getJoinRule } from "../accounts/join-rule";
import { changedFields } from "../audit/record";
import { db, type Queryable } from "../platform/db/client";
import { type Profile, profiles, type ScimAttributes, scimUsers, users } from "../platform/db/schema";
import { atListedDomain, domainOf } from "../platform/email-domains";
import { ValidationError } from "../platform/errors";
import { EmailSchema, NameSchema } from "../platform/validation";
import { CARD_FIELD_RULES } from "../profiles/card-fields";
import { type CardValues, type CardWriter, cardLabel } from "../profiles/card-writer";
import { managerNames, resolveManager } from "../profiles/managers";
import { uniqueUsername, usernameBase } from "../profiles/usernames";
import { newCardVisibility } from "../profiles/visibility";
import {
  attributesOf,
  booleanOf,
  enterpriseKey,
  keyOf,
  operationsOf,
  patched,
  primaryValue,
  userResource,
  valueAt,
} from "./attributes";
import { asConnection, LIST_SCHEMA, RESOURCE_ID, type ScimContext } from "./context";
import { notFound, ScimError } from "./errors";
import { type Condition, pagingOf, parseFilter } from "./filter";
import { syncBrands } from "./groups";

/**
 * SCIM Users (RFC 7643 §4.1, RFC 7644 §3): a provider creates, reads, lists,
 * replaces, patches and deletes the people it provisions, and each person's
 * card follows (docs/decisions/032-scim-provisioning.md). A connection sees
 * only the people it provisioned. Every card change goes through the card
 * writer in the connection's name, in the same transaction as the person's
 * row, under that row's lock: a PATCH and a DELETE of one person run one after
 * the other, never interleaved.
 */

type ScimUser = typeof scimUsers.$inferSelect;

function resourceOf(user: ScimUser, baseUrl: string) {
  return userResource(user, user.attributes, baseUrl);
}

/** A person of the connection, locked for the rest of the transaction; 404 when it is no person of this connection. */
async function lockedUser(tx: Queryable, context: ScimContext, id: string): Promise<ScimUser> {
  if (!RESOURCE_ID.test(id)) throw notFound("User", id);
  const [user] = await tx
    .select()
    .from(scimUsers)
    .where(and(eq(scimUsers.id, id), eq(scimUsers.connectionId, context.connection.id)))
    .for("update");
  if (!user) throw notFound("User", id);
  return user;
}

/** The card values a person's attributes give, each through the card form's own check. */
type CardFromScim = { email: string; firstName: string; lastName: string; fields: Partial<CardValues> };

function cardFrom(attributes: ScimAttributes): CardFromScim {
  const userName = valueAt(attributes, "userName") ?? "";
  const emailField = CARD_FIELD_RULES.email.scim;
  const candidates = [
    (emailField && keyOf(emailField) && valueAt(attributes, keyOf(emailField) as string)) || null,
    primaryValue(attributes, "emails"),
    userName,
  ];
  const email = candidates
    .map((candidate) => (candidate ? EmailSchema.safeParse(candidate) : null))
    .find((parsed) => parsed?.success)?.data;
  if (!email) {
    throw new ScimError(
      400,
      "A user needs an e-mail address for their card: a work e-mail in emails, or an e-mail address as userName.",
      "invalidValue",
    );
  }
  const name = (value: string | null, label: string) => {
    const parsed = NameSchema(label).safeParse(value ?? "");
    return parsed.success ? parsed.data : "";
  };
  const display = (valueAt(attributes, "displayName") ?? "").trim().split(/\s+/);
  const firstName =
    name(valueAt(attributes, "name.givenName"), "First name") ||
    name(display[0] ?? null, "First name") ||
    email.split("@")[0] ||
    "";
  const lastName =
    name(valueAt(attributes, "name.familyName"), "Last name") || name(display.slice(1).join(" "), "Last name");
  const fields: Record<string, string | null> = {};
  for (const key of scimFilledFields()) {
    const at = keyOf(CARD_FIELD_RULES[key].scim ?? "");
    // A phone number the provider files as the mobile one is the card's phone when there is no work number.
    const raw =
      (at ? valueAt(attributes, at) : null) ?? (key === "phone" ? primaryValue(attributes, "phoneNumbers") : null);
    const parsed = CARD_FIELD_RULES[key].schema.safeParse(raw ?? "");
    // A value the card's form would refuse (too long, not a phone number) is left off the card, not refused.
    fields[key] = parsed.success && typeof parsed.data === "string" && parsed.data ? parsed.data : null;
  }
  return { email, firstName, lastName, fields: fields as Partial<CardValues> };
}

/** A card field `cardFrom` fills from its own SCIM attribute (the e-mail and the links are read apart). */
const scimFilledFields = () =>
  CARD_FIELD_KEYS.filter((key) => key !== "email" && key !== "links" && CARD_FIELD_RULES[key].scim);

/**
 * What a SCIM User's attributes become on a card, read from the same registry and in the same
 * order as `cardFrom` reads them: shown to the administrator on the provisioning screen.
 */
export function scimAttributeMap(): { attribute: string; field: string }[] {
  return [
    { attribute: `${CARD_FIELD_RULES.email.scim}, else the primary of emails, else userName`, field: "Email" },
    {
      attribute: "name.givenName, else the first word of displayName, else the address before its @",
      field: "First name",
    },
    { attribute: "name.familyName, else the rest of displayName", field: "Last name" },
    ...scimFilledFields().map((key) => ({
      attribute: `${CARD_FIELD_RULES[key].scim}${key === "phone" ? ", else the primary of phoneNumbers" : ""}`,
      field: CARD_FIELDS[key].label,
    })),
    { attribute: `${enterpriseKey("manager")} (another user of this connection)`, field: "Manager" },
    { attribute: "active", field: "The card on (true) or switched off (false)" },
    { attribute: "Groups this connection sends", field: "Brand, where a group is mapped to one below" },
  ];
}

/** The card values that differ between two sets of attributes: a value the provider did not change is the member's. */
function changedCardValues(before: ScimAttributes | null, after: ScimAttributes): Partial<CardValues> {
  const next = cardFrom(after);
  const previous = before ? cardFrom(before) : null;
  const values: Partial<CardValues> = {};
  if (!previous || previous.email !== next.email) values.email = next.email;
  if (!previous || previous.firstName !== next.firstName) values.firstName = next.firstName;
  if (!previous || previous.lastName !== next.lastName) values.lastName = next.lastName;
  for (const [key, value] of Object.entries(next.fields) as [keyof CardValues, string | null][]) {
    const old = previous?.fields[key] ?? null;
    if (previous ? old !== value : value !== null) Object.assign(values, { [key]: value });
  }
  return values;
}

/** The manager's card the attributes name (a person of the same connection), or undefined when unchanged. */
async function managerChange(
  cards: CardWriter,
  context: ScimContext,
  before: ScimAttributes | null,
  after: ScimAttributes,
  card: Profile,
): Promise<string | null | undefined> {
  const key = enterpriseKey("manager");
  const wanted = valueAt(after, key);
  if (before && valueAt(before, key) === wanted) return undefined;
  if (!wanted) return before ? null : undefined;
  if (!RESOURCE_ID.test(wanted)) return undefined;
  const [manager] = await cards.tx
    .select({ email: profiles.email })
    .from(scimUsers)
    .innerJoin(profiles, eq(profiles.id, scimUsers.profileId))
    .where(and(eq(scimUsers.id, wanted), eq(scimUsers.connectionId, context.connection.id)));
  if (!manager) return undefined;
  try {
    return await resolveManager(cards.tx, manager.email, card.id);
  } catch (error) {
    // A manager the card cannot have (a cycle, a deactivated card) is left as it was.
    if (error instanceof ValidationError) return undefined;
    throw error;
  }
}

/**
 * Whether a connection may give a card this address: where the company lets in
 * only its own domains, a card at another address would let its holder join,
 * and a stolen token must not open the directory. (What no provider may touch
 * at all, administrators' cards and addresses, the card writer guards.)
 */
async function assertAddressAllowed(tx: Queryable, email: string) {
  const rule = await getJoinRule(tx);
  if (rule.mode !== "anyone" && rule.domains.length > 0 && !atListedDomain(email, rule.domains)) {
    throw new ScimError(
      400,
      `Cards are for addresses at ${rule.domains.join(", ")} (Settings → Who can join): ${domainOf(email)} is not one of them.`,
      "invalidValue",
    );
  }
}

/**
 * The card for a new person: the one prepared for their address (unclaimed,
 * or claimed by the account with that very address), else a new one. A card
 * claimed by another account, or provisioned for another person, is never
 * taken over.
 */
async function cardFor(cards: CardWriter, scimUserId: string, attributes: ScimAttributes): Promise<Profile> {
  const wanted = cardFrom(attributes);
  await assertAddressAllowed(cards.tx, wanted.email);
  const [existing] = await cards.tx
    .select({ card: profiles, owner: users.email })
    .from(profiles)
    .leftJoin(users, eq(users.id, profiles.userId))
    .where(sql`lower(${profiles.email}) = ${wanted.email.toLowerCase()}`)
    .for("update", { of: profiles });
  if (existing) {
    const { card, owner } = existing;
    if (card.userId && owner?.toLowerCase() !== wanted.email.toLowerCase()) {
      throw new ScimError(409, "The card with this e-mail address belongs to another account.", "uniqueness");
    }
    // An administrator's card is theirs to manage: a provider switching it off would lock them out.
    await cards.assertProviderMay(card.id);
    const [taken] = await cards.tx
      .select({ id: scimUsers.id })
      .from(scimUsers)
      .where(and(eq(scimUsers.profileId, card.id), sql`${scimUsers.id} <> ${scimUserId}`));
    if (taken)
      throw new ScimError(409, "The card with this e-mail address is provisioned for another user.", "uniqueness");
    // What the provider sends fills the prepared card; what it leaves out stays as the administrator wrote it.
    const changes = Object.fromEntries(
      Object.entries(changedCardValues(null, attributes)).filter(
        ([key, value]) => value !== null && value !== card[key as keyof Profile],
      ),
    ) as Partial<CardValues>;
    await cards.update({ id: card.id, label: cardLabel(card) }, changes, { changes: changedFields(card, changes) });
    return { ...card, ...changes } as Profile;
  }
  const { fields, ...names } = wanted;
  const made = await cards.create({
    ...fields,
    ...names,
    username: await uniqueUsername(cards.tx, usernameBase(names.firstName, names.lastName, fields.email)),
    fieldVisibility: await newCardVisibility(cards.tx),
    userId: null,
  });
  // Someone who signed up with the address before they were provisioned gets their card at once.
  await cards.claimForAccounts([made.id]);
  return made;
}

/** Runs `work` as the connection, answering 409 for a name or address another person holds. */

function requiredUserName(attributes: ScimAttributes): string {
  const userName = valueAt(attributes, "userName")?.trim();
  if (!userName) throw new ScimError(400, "userName is required.", "invalidValue");
  if (userName.length > 255) throw new ScimError(400, "userName may be at most 255 characters.", "invalidValue");
  return userName;
}

function activeOf(attributes: ScimAttributes): boolean {
  return attributes.active === undefined ? true : booleanOf(attributes.active, "active");
}

export async function createUser(context: ScimContext, body: Record<string, unknown>) {
  const attributes = attributesOf(body);
  const userName = requiredUserName(attributes);
  const active = activeOf(attributes);
  cardFrom(attributes);
  const user = await asConnection(context, async (cards) => {
    const [row] = await cards.tx
      .insert(scimUsers)
      .values({
        connectionId: context.connection.id,
        userName,
        externalId: valueAt(attributes, "externalId"),
        active,
        attributes,
      })
      .returning();
    if (!row) throw new Error("Inserting the user returned no row");
    const card = await cardFor(cards, row.id, attributes);
    const managerId = await managerChange(cards, context, null, attributes, card);
    if (managerId !== undefined) {
      const manager = await managerNames(cards.tx, null, managerId);
      await cards.update({ id: card.id, label: cardLabel(card) }, { managerId }, { changes: { manager } });
    }
    // The card follows the new person's state: switched off when they are not active, and on again when a
    // person the provider removed (and so switched off) comes back. Later edits leave an administrator's
    // deactivation alone: only a change of `active` switches the card (changeUser).
    await cards.setActive({ ...card, label: cardLabel(card) }, active);
    const [linked] = await cards.tx
      .update(scimUsers)
      .set({ profileId: card.id })
      .where(eq(scimUsers.id, row.id))
      .returning();
    await syncBrands(cards, [row.id]);
    return linked ?? row;
  });
  return resourceOf(user, context.baseUrl);
}

/** Writes new attributes for a person and makes their card follow. */
async function changeUser(context: ScimContext, id: string, next: (current: ScimUser) => ScimAttributes) {
  const user = await asConnection(context, async (cards) => {
    const current = await lockedUser(cards.tx, context, id);
    const attributes = next(current);
    const userName = requiredUserName(attributes);
    const active = activeOf(attributes);
    cardFrom(attributes);
    const [card] = current.profileId
      ? await cards.tx.select().from(profiles).where(eq(profiles.id, current.profileId)).for("update")
      : [];
    let target: Profile;
    if (card) {
      const values = changedCardValues(current.attributes, attributes);
      if (values.email && values.email.toLowerCase() !== card.email.toLowerCase()) {
        await assertAddressAllowed(cards.tx, values.email);
        const [other] = await cards.tx
          .select({ id: profiles.id })
          .from(profiles)
          .where(and(sql`lower(${profiles.email}) = ${values.email.toLowerCase()}`, sql`${profiles.id} <> ${card.id}`));
        if (other) throw new ScimError(409, "Another card has this e-mail address.", "uniqueness");
      }
      const managerId = await managerChange(cards, context, current.attributes, attributes, card);
      if (managerId !== undefined) values.managerId = managerId;
      const changes = changedFields(card, values);
      if (changes.managerId) {
        delete changes.managerId;
        changes.manager = await managerNames(cards.tx, card.managerId, values.managerId ?? null);
      }
      if (Object.keys(values).length) await cards.update({ id: card.id, label: cardLabel(card) }, values, { changes });
      target = card;
    } else {
      // The card was deleted by an administrator: the person gets one again.
      target = await cardFor(cards, current.id, attributes);
    }
    // Only a change of `active` switches the card: an administrator's own deactivation survives a provider's edit.
    if (active !== current.active) await cards.setActive({ ...target, label: cardLabel(target) }, active);
    const [row] = await cards.tx
      .update(scimUsers)
      .set({
        userName,
        externalId: valueAt(attributes, "externalId"),
        active,
        attributes,
        profileId: target.id,
        version: sql`${scimUsers.version} + 1`,
        updatedAt: new Date(),
      })
      .where(eq(scimUsers.id, current.id))
      .returning();
    if (!row) throw notFound("User", id);
    return row;
  });
  return resourceOf(user, context.baseUrl);
}

/** PUT: the whole resource replaces what was kept (RFC 7644 §3.5.1). */
export function replaceUser(context: ScimContext, id: string, body: Record<string, unknown>) {
  return changeUser(context, id, () => attributesOf(body));
}

/** PATCH (RFC 7644 §3.5.2), in each of the ways Microsoft and Okta write it. */
export function patchUser(context: ScimContext, id: string, body: Record<string, unknown>) {
  const operations = operationsOf(body);
  return changeUser(context, id, (current) => patched({ ...current.attributes, active: current.active }, operations));
}

/** DELETE: the card is switched off (410, out of the directory, sessions ended) and the person is forgotten; history stays. */
export async function deleteUser(context: ScimContext, id: string) {
  await asConnection(context, async (cards) => {
    const current = await lockedUser(cards.tx, context, id);
    if (current.profileId) {
      const [card] = await cards.tx.select().from(profiles).where(eq(profiles.id, current.profileId)).for("update");
      if (card) await cards.setActive({ ...card, label: cardLabel(card) }, false);
    }
    await cards.tx.delete(scimUsers).where(eq(scimUsers.id, current.id));
  });
}

export async function getUser(context: ScimContext, id: string) {
  if (!RESOURCE_ID.test(id)) throw notFound("User", id);
  const [user] = await db
    .select()
    .from(scimUsers)
    .where(and(eq(scimUsers.id, id), eq(scimUsers.connectionId, context.connection.id)));
  if (!user) throw notFound("User", id);
  return resourceOf(user, context.baseUrl);
}

function conditionSql(condition: Condition): SQL {
  const { attribute, value } = condition;
  const text = value === null ? null : String(value);
  switch (attribute) {
    case "userName":
      return text === null ? sql`false` : sql`lower(${scimUsers.userName}) = ${text.toLowerCase()}`;
    case "externalId":
      return text === null ? sql`${scimUsers.externalId} is null` : eq(scimUsers.externalId, text);
    case "id":
      return text !== null && RESOURCE_ID.test(text) ? eq(scimUsers.id, text) : sql`false`;
    case "active":
      return typeof value === "boolean" ? eq(scimUsers.active, value) : sql`false`;
    case "displayName":
      return text === null ? sql`false` : sql`${scimUsers.attributes}->>'displayName' = ${text}`;
    case "emails.value":
      return text === null
        ? sql`false`
        : sql`exists (select 1 from jsonb_each_text(${scimUsers.attributes}) e where e.key like 'emails[%].value' and lower(e.value) = ${text.toLowerCase()})`;
    default:
      throw new ScimError(400, `Users cannot be filtered by ${attribute}.`, "invalidFilter");
  }
}

/** GET /Users, filtered and paged; a filter that matches nobody answers an empty list (a provider's connection test). */
export async function listUsers(context: ScimContext, query: URLSearchParams) {
  const filter = query.get("filter");
  const conditions = filter ? parseFilter(filter).map(conditionSql) : [];
  const where = and(eq(scimUsers.connectionId, context.connection.id), ...conditions);
  const { offset, limit } = pagingOf(query.get("startIndex"), query.get("count"));
  const [total, rows] = await Promise.all([
    db.select({ count: sql<number>`count(*)::int` }).from(scimUsers).where(where),
    limit === 0
      ? Promise.resolve([])
      : db
          .select()
          .from(scimUsers)
          .where(where)
          .orderBy(asc(scimUsers.createdAt), asc(scimUsers.id))
          .offset(offset)
          .limit(limit),
  ]);
  return {
    schemas: [LIST_SCHEMA],
    totalResults: total[0]?.count ?? 0,
    startIndex: offset + 1,
    itemsPerPage: rows.length,
    Resources: rows.map((row) => resourceOf(row, context.baseUrl)),
  };
}
