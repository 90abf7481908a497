import { and, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import { administrationScope, can, holds } from "~/lib/permissions";
import type { Actor } from "../platform/actor";
import { brandAdministrators, brands, profiles, users } from "../platform/db/schema";
import { env } from "../platform/env";

/**
 * The SQL side of `decide` (app/lib/permissions.ts): which rows an actor may
 * see or change, as a condition every query that lists or changes them is
 * filtered by. A card outside it looks exactly like one that does not exist.
 */

/** Cards of the brands the actor administers: every card for an administrator, none for a member. */
export function administeredCards(actor: Actor): SQL {
  const scope = administrationScope(actor);
  if (!scope) return sql`false`;
  if (scope.kind === "everything") return sql`true`;
  return inArray(profiles.companyBrandId, [...scope.brandIds]);
}

/** Brands the actor administers: every brand for an administrator, none for a member. */
function administeredBrandRows(actor: Actor): SQL {
  const scope = administrationScope(actor);
  if (!scope) return sql`false`;
  if (scope.kind === "everything") return sql`true`;
  return inArray(brands.id, [...scope.brandIds]);
}

/** What an administration page counts and lists: the cards and the brands within an actor's reach. */
export type Reach = { cards: SQL; brands: SQL };

export function reachOf(actor: Actor): Reach {
  return { cards: administeredCards(actor), brands: administeredBrandRows(actor) };
}

/**
 * The cards an actor may change (`update`), delete, deactivate or invite:
 * any of them with the `:any` permission, their brands' with `:brand`, their
 * own with `:own` (only `update` has one), none otherwise.
 */
export function changeableProfiles(actor: Actor, action: "update" | "delete" | "deactivate" | "invite"): SQL {
  if (can(actor.role, `${action}:profile:any`)) return sql`true`;
  const parts: SQL[] = [];
  if (holds(actor, `${action}:profile:brand`)) {
    parts.push(and(administeredCards(actor), notAnAdministratorsCard(), runsNoBrandBeyond(actor))!);
  }
  if (action === "update") parts.push(eq(profiles.userId, actor.user.id));
  return parts.length ? (or(...parts) ?? sql`false`) : sql`false`;
}

/**
 * The cards an actor acts on as their administrator (not merely as their owner): every card for an
 * administrator, their brands' cards for a brand administrator, as `changeableProfiles` allows them.
 */
export function managedCards(actor: Actor): SQL {
  return and(changeableProfiles(actor, "update"), administeredCards(actor))!;
}

/**
 * Cards whose owner runs no brand but the actor's: deleting or switching off a card ends its owner's
 * account, so a brand administrator never reaches someone who also runs a brand they do not.
 */
function runsNoBrandBeyond(actor: Actor): SQL {
  const own = actor.brandIds?.length
    ? sql.join(
        actor.brandIds.map((id) => sql`${id}`),
        sql`, `,
      )
    : sql`null`;
  return sql`not exists (select 1 from ${brandAdministrators} g
    where g.user_id = ${profiles.userId} and g.brand_id not in (${own}))`;
}

/**
 * Cards whose owner is no administrator of the whole site (by role, or an
 * address in ADMIN_EMAILS): a brand administrator may change their brands'
 * cards, never the card of someone who can take their role away.
 */
function notAnAdministratorsCard(): SQL {
  const configured = env.ADMIN_EMAILS.length
    ? sql.join(
        env.ADMIN_EMAILS.map((email) => sql`${email}`),
        sql`, `,
      )
    : null;
  const listed = (column: SQL) => (configured ? sql`lower(${column}) in (${configured})` : sql`false`);
  return sql`not (${listed(sql`${profiles.email}`)} or exists (select 1 from ${users} u
    where u.id = ${profiles.userId} and (u.role = 'admin' or ${listed(sql`u.email`)})))`;
}
