import { and, eq } from "drizzle-orm";
import { changeableProfiles } from "../access/scope";
import type { Actor } from "../platform/actor";
import { db } from "../platform/db/client";
import { profiles } from "../platform/db/schema";
import { NotFoundError } from "../platform/errors";
import { CARD_DETAIL_COLUMNS } from "./card-fields";

/** The fields of a card as its edit form shows them, if the actor may change it. */
export async function getEditableProfile({ actor, profileId }: { actor: Actor; profileId: string }) {
  const [profile] = await db
    .select({
      id: profiles.id,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      username: profiles.username,
      ...CARD_DETAIL_COLUMNS,
      companyBrandId: profiles.companyBrandId,
      profilePhoto: profiles.profilePhoto,
      updatedAt: profiles.updatedAt,
    })
    .from(profiles)
    .where(and(eq(profiles.id, profileId), changeableProfiles(actor, "update")));
  if (!profile) throw new NotFoundError("profile");
  return profile;
}
