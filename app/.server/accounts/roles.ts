import { eq } from "drizzle-orm";
import { can, ROLE_LABELS, type Role } from "~/lib/permissions";
import { recordAdminAction } from "../audit/record";
import type { Actor } from "../platform/actor";
import { isAdminEmail, roleOf } from "../platform/admins";
import { db } from "../platform/db/client";
import { brandAdministrators, users } from "../platform/db/schema";
import { ForbiddenError, ValidationError } from "../platform/errors";
import { publish } from "../platform/realtime";
import { cardLabel } from "../profiles/card-writer";
import { lockedCardAndAccount } from "./card-account";

/** Why a role could not be given or taken, as the form says it. */
export const ROLE_MESSAGES = {
  unclaimed: "Only someone who has signed in can be an administrator: this card has no account yet.",
  deactivated: "A deactivated card cannot be made an administrator: reactivate it first.",
  self: "You cannot take away your own administrator role: ask another administrator.",
  configured: (email: string) =>
    `${email} is an administrator through ADMIN_EMAILS: remove the address there to take the role away.`,
};

/**
 * Makes the owner of a card an administrator, or a member again
 * (docs/decisions/029-one-way-into-a-session.md). The role is the account's
 * and is read with each request, so it applies at once, on every instance;
 * the change and its audit entry are written together. Asking for the role
 * someone already has changes nothing and records nothing.
 */
export async function setRole({
  actor,
  profileId,
  role,
}: {
  actor: Actor;
  profileId: string;
  role: Role;
}): Promise<{ firstName: string; lastName: string; changed: boolean }> {
  if (!can(actor.role, "update:role:any")) throw new ForbiddenError();
  const result = await db.transaction(async (tx) => {
    const card = await lockedCardAndAccount(tx, profileId);
    if (!card.userId || !card.email) throw new ValidationError({ id: [ROLE_MESSAGES.unclaimed] });
    const before = roleOf({ email: card.email, role: card.role });
    if (before === role) return { card, changed: false };
    if (role === "admin" && card.deactivatedAt) throw new ValidationError({ id: [ROLE_MESSAGES.deactivated] });
    // An administrator who took their own role would lose this screen with no way back.
    if (role === "member" && card.userId === actor.user.id) throw new ValidationError({ id: [ROLE_MESSAGES.self] });
    if (role === "member" && isAdminEmail(card.email)) {
      throw new ValidationError({ id: [ROLE_MESSAGES.configured(card.email)] });
    }
    await tx.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, card.userId));
    // An administrator runs every brand: grants kept now would come back, unseen, if the role were taken away.
    if (role === "admin") await tx.delete(brandAdministrators).where(eq(brandAdministrators.userId, card.userId));
    await recordAdminAction(tx, {
      actor,
      action: "role",
      target: { kind: "profile", id: card.id, label: cardLabel(card) },
      changes: { role: [ROLE_LABELS[before], ROLE_LABELS[role]] },
    });
    return { card, changed: true };
  });
  // Their open pages refresh, and show the navigation of their new role.
  if (result.changed) await publish({ kind: "profile", id: result.card.id });
  return { firstName: result.card.firstName, lastName: result.card.lastName, changed: result.changed };
}
