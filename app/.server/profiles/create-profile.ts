import { and, eq, sql } from "drizzle-orm";
import { decide } from "~/lib/permissions";
import type { Actor } from "../platform/actor";
import { isAdminEmail } from "../platform/admins";
import { db } from "../platform/db/client";
import { users } from "../platform/db/schema";
import { ForbiddenError, ValidationError } from "../platform/errors";
import { deleteImageIfUnused, type ImageChange, storedKey } from "../platform/images";
import { writeCards } from "./card-writer";
import { assertProfileFieldsAvailable, conflictFromUniqueViolation } from "./field-checks";
import { resolveManager } from "./managers";
import { storeNewPhoto } from "./photo";
import type { NewProfileFields, ProfileFields } from "./schemas";
import { managerChoices } from "./update-profile";
import { uniqueUsername, usernameBase } from "./usernames";
import { effectiveVisibility, getFieldPolicies } from "./visibility";

const CREATE_IN_YOUR_BRANDS = "Choose one of the brands you administer.";
const ADMINISTRATORS_ADDRESS = "This address is an administrator's: ask an administrator to prepare this card.";

/** Whether the address is an administrator's: in ADMIN_EMAILS, or an account with the role. */
async function isAdministratorsAddress(email: string): Promise<boolean> {
  if (isAdminEmail(email)) return true;
  const [account] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, eq(users.role, "admin")));
  return account !== undefined;
}

export type CreateProfileOptions = { actor: Actor; fields: NewProfileFields; photo: ImageChange };

/**
 * An unclaimed card (no account, no password) that its owner claims later by
 * signing up with its address and confirming it.
 */
export async function createProfile({ actor, fields: input, photo }: CreateProfileOptions) {
  if (!decide(actor, "create:profile")) throw new ForbiddenError();
  // A brand administrator makes cards in their brands only.
  if (!decide(actor, "create:profile", { brandId: input.companyBrandId })) {
    throw new ValidationError({ companyBrandId: [CREATE_IN_YOUR_BRANDS] });
  }
  // The card an administrator of the whole site would claim is theirs to prepare, not a brand administrator's.
  if (actor.role !== "admin" && (await isAdministratorsAddress(input.email))) {
    throw new ValidationError({ email: [ADMINISTRATORS_ADDRESS] });
  }
  // A username left blank follows the first.last rule, numbered when taken;
  // one that was typed must be free.
  const username =
    input.username ?? (await uniqueUsername(db, usernameBase(input.firstName, input.lastName, input.email)));
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
    const created = await writeCards({ kind: "administrator", actor }, async (cards) => {
      const managerId = await resolveManager(cards.tx, manager ?? null, null, managerChoices(actor));
      const card = await cards.create({ ...values, managerId, userId: null });
      // A card made for the address of a confirmed account without a card belongs to it at once.
      await cards.claimForAccounts([card.id]);
      return { id: card.id, email: card.email, firstName: card.firstName, lastName: card.lastName };
    });
    return { profile: created, photoSkipped: stored.outcome === "storage-failed" };
  } catch (error) {
    await deleteImageIfUnused(storedKey(stored));
    throw conflictFromUniqueViolation(error);
  }
}
