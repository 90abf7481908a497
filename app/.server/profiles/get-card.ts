import { and, eq, isNull, sql } from "drizzle-orm";
import type { FieldPolicies } from "~/lib/card-fields";
import { managedCards } from "../access/scope";
import type { Actor } from "../platform/actor";
import { db } from "../platform/db/client";
import { brands, profiles } from "../platform/db/schema";
import { CARD_DETAIL_COLUMNS } from "./card-fields";
import { isPossibleUsername } from "./usernames";
import { type CardViewer, completeVisibility, getFieldPolicies, shownDetails, viewerOfCard } from "./visibility";

/**
 * One active profile and its brand, by username (any case); a deactivated
 * card is not found. Every detail is read: the caller shows what its viewer
 * may see through `cardForViewer`.
 */
export async function getCardByUsername(username: string) {
  // Only what a username can be reaches the database: anything else is simply not found.
  if (!isPossibleUsername(username)) return null;
  const [row] = await db
    .select({
      id: profiles.id,
      userId: profiles.userId,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      username: profiles.username,
      ...CARD_DETAIL_COLUMNS,
      managerId: profiles.managerId,
      profilePhoto: profiles.profilePhoto,
      viewCount: profiles.viewCount,
      createdAt: profiles.createdAt,
      updatedAt: profiles.updatedAt,
      brand: {
        id: brands.id,
        name: brands.name,
        primaryColor: brands.primaryColor,
        secondaryColor: brands.secondaryColor,
        logo: brands.logo,
        coverImage: brands.coverImage,
        website: brands.website,
        qrLogo: brands.qrLogo,
        defaultLocale: brands.defaultLocale,
      },
    })
    .from(profiles)
    .leftJoin(brands, eq(brands.id, profiles.companyBrandId))
    .where(and(sql`lower(${profiles.username}) = ${username.toLowerCase()}`, isNull(profiles.deactivatedAt)))
    .limit(1);
  return row ?? null;
}

type StoredCard = NonNullable<Awaited<ReturnType<typeof getCardByUsername>>>;

/** The card as `viewer` may see it: details hidden from them emptied, and the visibilities themselves left out. */
export async function cardForViewer(card: StoredCard, viewer: CardViewer | null, policies?: FieldPolicies) {
  const { fieldVisibility, ...details } = card;
  const visibility = completeVisibility(fieldVisibility, policies ?? (await getFieldPolicies()));
  return shownDetails(details, visibility, viewerOfCard(viewer, card));
}

/** Whether the actor manages this card as its administrator (access/scope.ts `managedCards`). */
export async function managesCard(actor: Actor, profileId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(eq(profiles.id, profileId), managedCards(actor)));
  return row !== undefined;
}
