import { and, eq } from "drizzle-orm";
import { brandPolicies, brandValues, CARD_FIELD_KEYS } from "~/lib/card-fields";
import { administers } from "~/lib/permissions";
import { administeredCards, changeableProfiles } from "../access/scope";
import { changedFields } from "../audit/record";
import { brandTemplate } from "../brands/template";
import type { Actor } from "../platform/actor";
import { db, type Queryable } from "../platform/db/client";
import { brands, profiles } from "../platform/db/schema";
import { assertUnchangedSince } from "../platform/edit-version";
import { NotFoundError, ValidationError } from "../platform/errors";
import { deleteImageIfUnused, type ImageChange, nextImageKey } from "../platform/images";
import { type CardEmailRequest, needsCardEmailProof, requestCardEmail } from "./card-email";
import { cardLabel, writeCards } from "./card-writer";
import { assertProfileFieldsAvailable, conflictFromUniqueViolation } from "./field-checks";
import { managerNames, resolveManager } from "./managers";
import { storeNewPhoto } from "./photo";
import { assertMayRename, countRename, recordUsernameChange } from "./previous-usernames";
import type { ProfileFields } from "./schemas";
import { completeVisibility, effectiveVisibility, getFieldPolicies } from "./visibility";

export type UpdateProfileOptions = {
  actor: Actor;
  profileId: string;
  fields: ProfileFields;
  photo: ImageChange;
  /** The card's version the form was opened on: a save over someone else's later change is refused. */
  version?: Date;
};

export type UpdateProfileResult = {
  profile: { id: string; firstName: string; lastName: string; username: string };
  /** The new photo could not be stored (not the person's fault); everything else was saved. */
  photoSkipped: boolean;
  /** A new address waits for its confirmation link (sent), or could not be sent one this hour. */
  emailChange: { email: string; outcome: CardEmailRequest["outcome"] } | null;
};

/**
 * Saves a card's fields and photo. One implementation for a member editing
 * their own card and an administrator editing anyone's: which cards the actor
 * may reach is decided by `changeableProfiles`.
 */
export async function updateProfile({
  actor,
  profileId,
  fields,
  photo,
  version,
}: UpdateProfileOptions): Promise<UpdateProfileResult> {
  const [current] = await db
    .select()
    .from(profiles)
    .where(and(eq(profiles.id, profileId), changeableProfiles(actor, "update")));
  if (!current) throw new NotFoundError("profile");
  assertUnchangedSince(version, current.updatedAt, "card");

  const renamed = fields.username.toLowerCase() !== current.username.toLowerCase();
  // An administrator of the whole site or of the card's brand edits as an administrator; a member edits their own.
  // Their own card a brand administrator edits as a member, like everyone else.
  const byAdministrator =
    actor.role === "admin" || (administers(actor, current.companyBrandId) && current.userId !== actor.user.id);
  if (renamed && !byAdministrator) await assertMayRename(current.id);
  await assertProfileFieldsAvailable(fields, current);
  // A member's new address is shown only once they open the link sent to it; the rest is saved now.
  const proveEmail = !byAdministrator && needsCardEmailProof(actor, fields.email, current.email);
  const { visibility: chosen, manager, ...submitted } = proveEmail ? { ...fields, email: current.email } : fields;
  // A field the company or the card's brand locked takes its value and visibility from administrators (and
  // imports) only; a value the brand sets on all its cards is the brand's, whoever edits.
  const template = await brandTemplate(current.companyBrandId);
  const policies = brandPolicies(await getFieldPolicies(), template);
  const fixed = brandValues(template);
  const saved = { ...submitted };
  const choices = { ...current.visibilityChoices };
  for (const key of CARD_FIELD_KEYS) {
    if (key in fixed || (policies[key].locked && !byAdministrator)) {
      Object.assign(saved, { [key]: current[key] });
    } else if (chosen?.[key]) {
      choices[key] = chosen[key];
    }
  }
  const fieldVisibility = effectiveVisibility(choices, policies);
  const stored = await storeNewPhoto(photo);
  const photoKey = nextImageKey(photo, stored, current.profilePhoto);
  try {
    // An administrator's every change is on the record; a member's own edits are theirs (card-writer.ts).
    const author = byAdministrator ? ({ kind: "administrator", actor } as const) : ({ kind: "member", actor } as const);
    await writeCards(author, async (cards) => {
      const { tx } = cards;
      // Checked again under the row's lock: a save that began meanwhile finishes first.
      const [locked] = await tx
        .select({ updatedAt: profiles.updatedAt })
        .from(profiles)
        .where(eq(profiles.id, current.id))
        .for("update");
      if (!locked) throw new NotFoundError("profile");
      assertUnchangedSince(version, locked.updatedAt, "card");
      if (saved.companyBrandId !== current.companyBrandId) {
        await assertMayMove(tx, actor, current.companyBrandId, saved.companyBrandId);
      }
      // Only administrators (and imports and SCIM) say who reports to whom.
      const managerId =
        byAdministrator && manager !== undefined
          ? await resolveManager(tx, manager, current.id, managerChoices(actor))
          : current.managerId;
      if (renamed && !byAdministrator) await countRename(tx, current.id);
      await recordUsernameChange(tx, current.id, current.username, saved.username);
      // An administrator's edit is on the record, with what it changed (docs/decisions/019-deactivation-and-audit-log.md).
      // A card saved before it had visibilities of its own had the defaults: only a real change is one.
      const before = { ...current, fieldVisibility: completeVisibility(current.fieldVisibility, policies) };
      const changes = changedFields(before, { ...saved, fieldVisibility, managerId, profilePhoto: photoKey }, [
        "profilePhoto",
      ]);
      // The audit log names a manager by username, as people know them.
      if (changes.managerId) {
        delete changes.managerId;
        changes.manager = await managerNames(tx, current.managerId, managerId);
      }
      await cards.update(
        { id: current.id, label: cardLabel({ ...fields, username: saved.username }) },
        { ...saved, visibilityChoices: choices, fieldVisibility, managerId, profilePhoto: photoKey },
        { changes, where: changeableProfiles(actor, "update") },
      );
    });
  } catch (error) {
    if (photoKey !== current.profilePhoto) await deleteImageIfUnused(photoKey);
    throw conflictFromUniqueViolation(error);
  }
  if (photoKey !== current.profilePhoto) await deleteImageIfUnused(current.profilePhoto);
  const emailChange = proveEmail
    ? { email: fields.email, outcome: (await requestCardEmail(actor, fields.email)).outcome }
    : null;
  return {
    profile: { id: current.id, firstName: fields.firstName, lastName: fields.lastName, username: fields.username },
    photoSkipped: stored.outcome === "storage-failed",
    emailChange,
  };
}

/** Who a brand administrator may name as a manager: their brands' people (an administrator anyone). */
export function managerChoices(actor: Actor) {
  return actor.role === "admin" ? undefined : administeredCards(actor);
}

/** Why a card could not go to the brand chosen, on the brand field. */
export const BRAND_MOVE_MESSAGES = {
  outOfScope: "You can move a card only into a brand you administer.",
  kept: "Your card stays in the brand your administrators gave it: ask them to move it.",
};

/**
 * Who may move a card to another brand: an administrator anywhere; a brand
 * administrator only between their own brands (never out of them); a member
 * their own card only from no brand, or from a brand that lets its members
 * choose (docs/decisions/044-brand-administrators.md).
 */
async function assertMayMove(tx: Queryable, actor: Actor, from: number | null, to: number | null) {
  if (administers(actor, from)) {
    if (!administers(actor, to)) throw new ValidationError({ companyBrandId: [BRAND_MOVE_MESSAGES.outOfScope] });
    return;
  }
  if (!(await brandChosenByMember(actor, from, tx))) {
    throw new ValidationError({ companyBrandId: [BRAND_MOVE_MESSAGES.kept] });
  }
}

/** Whether the owner of a card in brand `from` chooses its brand on their own form (else it is only shown). */
export async function brandChosenByMember(actor: Actor, from: number | null, tx: Queryable = db): Promise<boolean> {
  if (from === null || administers(actor, from)) return true;
  const [brand] = await tx
    .select({ membersChangeBrand: brands.membersChangeBrand })
    .from(brands)
    .where(eq(brands.id, from));
  return brand?.membersChangeBrand === true;
}
