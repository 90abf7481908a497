import { and, eq, isNotNull, isNull, or, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { brandValues } from "~/lib/card-fields";
import { mediaUrl } from "~/lib/media";
import { decide } from "~/lib/permissions";
import { changeableProfiles } from "../access/scope";
import { templateFrom } from "../brands/template";
import type { Actor } from "../platform/actor";
import { db, type Queryable } from "../platform/db/client";
import { brands, profiles, sessions, siteSettings, usernameRedirects } from "../platform/db/schema";
import { ForbiddenError, NotFoundError, ValidationError } from "../platform/errors";
import { publish } from "../platform/realtime";
import { cardLabel, writeCards } from "./card-writer";
import { isPossibleUsername, oldNameLive } from "./usernames";

/** What the sign-in form says to someone whose card an administrator switched off (only after the right password). */
export const DEACTIVATED_SIGN_IN =
  "Your card has been deactivated by an administrator, so you cannot sign in. Ask your administrator if you need it back.";

export type CardState = "active" | "deactivated";

/**
 * Switches a card off or on again (docs/decisions/019-deactivation-and-audit-log.md).
 * Switching it off ends its owner's sessions at once, here and on every
 * instance (their live-update streams close too); views and history stay.
 * Switching it on restores the card, the directory entry and sign-in. Asking
 * for the state a card is already in changes nothing and records nothing.
 */
export async function setCardState({
  actor,
  profileId,
  state,
}: {
  actor: Actor;
  profileId: string;
  state: CardState;
}): Promise<{ firstName: string; lastName: string; changed: boolean }> {
  if (!decide(actor, "deactivate:profile")) throw new ForbiddenError();
  const deactivate = state === "deactivated";
  const { current, changed } = await writeCards({ kind: "administrator", actor }, async (cards) => {
    const current = await lockedCard(cards.tx, profileId, changeableProfiles(actor, "deactivate"));
    // An administrator who switched off their own card would be signed out with no way back in.
    if (deactivate && current.userId === actor.user.id) {
      throw new ValidationError({ id: ["You cannot deactivate your own card."] });
    }
    return { current, changed: await cards.setActive(current, !deactivate) };
  });
  return { firstName: current.firstName, lastName: current.lastName, changed };
}

/** A card as switching it off or on needs it, of those `within` selects, locked until the transaction ends. */
async function lockedCard(tx: Queryable, profileId: string, within: SQL) {
  const [current] = await tx
    .select({
      id: profiles.id,
      userId: profiles.userId,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      username: profiles.username,
      deactivatedAt: profiles.deactivatedAt,
    })
    .from(profiles)
    .where(and(eq(profiles.id, profileId), within))
    .for("update");
  if (!current) throw new NotFoundError("profile");
  return { ...current, label: cardLabel(current) };
}

/**
 * The cards that decide whether an account may hold a session: its own, and, while it has
 * claimed none, the unclaimed one prepared for its address. Once it has a card, an unclaimed
 * card at its address (one a provider made, say) decides nothing for it. The account is given
 * by value, or by the users table's columns when read in the same statement (signed-in.ts).
 */
export function cardsOfAccount(user: { id: string | AnyPgColumn; email: string | AnyPgColumn }) {
  return or(
    eq(profiles.userId, user.id),
    and(
      isNull(profiles.userId),
      sql`lower(${profiles.email}) = lower(${user.email})`,
      sql`not exists (select 1 from ${profiles} own where own.user_id = ${user.id})`,
    ),
  );
}

/**
 * Whether this account may not hold a session: its card is deactivated, or
 * (before it has claimed one) the unclaimed card prepared for its address is.
 */
export async function isDeactivatedAccount(user: { id: string; email: string }): Promise<boolean> {
  const [row] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(isNotNull(profiles.deactivatedAt), cardsOfAccount(user)))
    .limit(1);
  return row !== undefined;
}

/** Ends every session of an account (a deactivated one that slipped in), here and on every instance. */
export async function endSessionsOf(userId: string) {
  await db.delete(sessions).where(eq(sessions.userId, userId));
  await publish({ kind: "user-sessions-ended", id: userId });
}

/** How a visitor of a deactivated card reaches its company instead: the brand's, else the site's details. */
export type CompanyContact = {
  name: string | null;
  email: string | null;
  phone: string | null;
  website: string | null;
  /** The card's brand's logo, shown where the card was; null without one. */
  logoUrl: string | null;
};

/**
 * What a deactivated card's address responds with, by its username now or one it
 * had before: where to send the visitor (the card's brand website, when the
 * site says so and there is one), or null for the 410 page, with how to reach
 * the company. Undefined when no deactivated card has that name.
 */
export async function deactivatedCardResponse(
  username: string,
): Promise<{ redirectTo: string | null; contact: CompanyContact } | undefined> {
  if (!isPossibleUsername(username)) return undefined;
  const name = username.toLowerCase();
  const [row] = await db
    .select({
      website: brands.website,
      brandName: brands.name,
      brandLogo: brands.logo,
      brandTemplate: brands.template,
      behaviour: siteSettings.deactivatedCards,
      companyName: siteSettings.companyName,
      siteWebsite: siteSettings.website,
      email: siteSettings.email,
      phone: siteSettings.phone,
    })
    .from(profiles)
    .leftJoin(brands, eq(brands.id, profiles.companyBrandId))
    .leftJoin(siteSettings, eq(siteSettings.id, 1))
    .where(
      and(
        isNotNull(profiles.deactivatedAt),
        or(
          sql`lower(${profiles.username}) = ${name}`,
          sql`exists (select 1 from ${usernameRedirects} where ${usernameRedirects.username} = ${name} and ${usernameRedirects.profileId} = ${profiles.id} and ${oldNameLive()})`,
        ),
      ),
    )
    .limit(1);
  if (!row) return undefined;
  return {
    redirectTo: row.behaviour === "brand-website" && row.website ? row.website : null,
    contact: {
      name: row.brandName ?? row.companyName,
      email: row.email,
      // The brand's main phone, when its template gives every card one, before the company's.
      phone: brandPhone(row.brandTemplate) ?? row.phone,
      website: row.website ?? row.siteWebsite,
      logoUrl: mediaUrl(row.brandLogo),
    },
  };
}

function brandPhone(template: unknown): string | null {
  const phone = brandValues(templateFrom(template)).phone;
  return typeof phone === "string" ? phone : null;
}
