import { and, eq, isNull, sql } from "drizzle-orm";
import { can } from "~/lib/permissions";
import type { Actor } from "../actor";
import { changedFields, recordAdminAction } from "../audit/record";
import { db } from "../db/client";
import { profiles, users } from "../db/schema";
import { ForbiddenError } from "../errors";
import { deleteImageIfUnused, type ImageChange, storedKey } from "../images";
import { publish } from "../realtime";
import { assertProfileFieldsAvailable, conflictFromUniqueViolation } from "./field-checks";
import { resolveManager } from "./managers";
import { storeNewPhoto } from "./photo";
import type { NewProfileFields, ProfileFields } from "./schemas";
import { uniqueUsername, usernameBase } from "./usernames";
import { effectiveVisibility, getFieldPolicies } from "./visibility";

export type CreateProfileOptions = { actor: Actor; fields: NewProfileFields; photo: ImageChange };

/**
 * An unclaimed card (no account, no password) that its owner claims later by
 * signing up with its address and confirming it.
 */
export async function createProfile({ actor, fields: input, photo }: CreateProfileOptions) {
  if (!can(actor.role, "create:profile:any")) throw new ForbiddenError();
  // A username left blank follows the first.last rule, numbered when taken;
  // one that was typed must be free.
  const username = input.username ?? (await uniqueUsername(db, usernameBase(input.firstName, input.lastName)));
  const fields: ProfileFields = { ...input, username };
  await assertProfileFieldsAvailable(fields, null);

  const stored = await storeNewPhoto(photo);
  try {
    const { visibility: chosen, manager, ...details } = fields;
    const policies = await getFieldPolicies();
    const visibilityChoices = chosen ?? {};
    const values = {
      ...details,
      visibilityChoices,
      fieldVisibility: effectiveVisibility(visibilityChoices, policies),
      profilePhoto: storedKey(stored) ?? null,
    };
    const created = await db.transaction(async (tx) => {
      const managerId = await resolveManager(tx, manager ?? null, null);
      const [row] = await tx
        .insert(profiles)
        .values({ ...values, managerId, viewCount: 0, userId: null })
        .returning({
          id: profiles.id,
          email: profiles.email,
          firstName: profiles.firstName,
          lastName: profiles.lastName,
        });
      if (!row) throw new Error("Inserting the profile returned no row");
      await recordAdminAction(tx, {
        actor,
        action: "create",
        target: { kind: "profile", id: row.id, label: `${fields.firstName} ${fields.lastName} (@${fields.username})` },
        changes: changedFields(null, values, ["profilePhoto"]),
      });
      return row;
    });
    await linkToExistingAccount(created.id, fields.email);
    await publish({ kind: "profile", id: created.id });
    return { profile: created, photoSkipped: stored.outcome === "storage-failed" };
  } catch (error) {
    await deleteImageIfUnused(storedKey(stored));
    throw conflictFromUniqueViolation(error);
  }
}

/** A card made for the address of a confirmed account without a card belongs to it at once. */
async function linkToExistingAccount(profileId: string, email: string) {
  const [owner] = await db
    .select({ id: users.id })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, eq(users.emailVerified, true), isNull(profiles.id)))
    .limit(1);
  if (!owner) return;
  await db
    .update(profiles)
    .set({ userId: owner.id, claimedAt: new Date() })
    .where(and(eq(profiles.id, profileId), isNull(profiles.userId)));
}
