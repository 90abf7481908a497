import { and, eq, sql } from "drizzle-orm";
import { changeableProfiles } from "../access/scope";
import { recordAdminAction } from "../audit/record";
import type { Actor } from "../platform/actor";
import { db } from "../platform/db/client";
import { auditLog, profiles, users } from "../platform/db/schema";
import { NotFoundError, ValidationError } from "../platform/errors";
import { deleteImageIfUnused } from "../platform/images";
import { publish } from "../platform/realtime";
import { cardLabel } from "./card-writer";
import { oldNamesOf, reserveNamesOfDeletedCard } from "./previous-usernames";

/**
 * Erases a profile: the card, its views (by cascade) and its photo file. Its
 * username and old usernames stay reserved, leading nowhere, for
 * DELETED_CARD_NAMES_DAYS. The audit log keeps that it was deleted and by whom, but the
 * field values its earlier entries held are erased with it
 * (docs/decisions/019-deactivation-and-audit-log.md).
 *
 * A claimed card takes its owner's account with it, in the same transaction:
 * their sessions, password and pending links go (by cascade), on every
 * instance at once, so that deleting someone (or deactivating, then deleting
 * them) never leaves them signed in or able to sign in to the members-only
 * directory. An administrator cannot delete their own card this way.
 */
export async function deleteProfile({ actor, profileId }: { actor: Actor; profileId: string }) {
  const deleted = await db.transaction(async (tx) => {
    const oldNames = await oldNamesOf(tx, profileId);
    const [row] = await tx
      .delete(profiles)
      .where(and(eq(profiles.id, profileId), changeableProfiles(actor, "delete")))
      .returning({
        id: profiles.id,
        firstName: profiles.firstName,
        lastName: profiles.lastName,
        username: profiles.username,
        profilePhoto: profiles.profilePhoto,
        userId: profiles.userId,
      });
    if (!row) return null;
    // Rolled back with the rest: they would be signed out with no card and no way back in.
    if (row.userId === actor.user.id) throw new ValidationError({ id: ["You cannot delete your own card."] });
    if (row.userId) await tx.delete(users).where(eq(users.id, row.userId));
    // Its printed QR codes must not lead to someone else's card for a while.
    await reserveNamesOfDeletedCard(tx, [row.username, ...oldNames]);
    await tx
      .update(auditLog)
      .set({
        changes: sql`coalesce((select jsonb_object_agg(field, '["(erased)", "(erased)"]'::jsonb) from jsonb_object_keys(${auditLog.changes}) as field), '{}'::jsonb)`,
      })
      .where(and(eq(auditLog.targetKind, "profile"), eq(auditLog.targetId, row.id)));
    await recordAdminAction(tx, {
      actor,
      action: "delete",
      target: { kind: "profile", id: row.id, label: cardLabel(row) },
    });
    return row;
  });
  if (!deleted) throw new NotFoundError("profile");
  await deleteImageIfUnused(deleted.profilePhoto);
  await publish({ kind: "profile", id: deleted.id });
  // Their open pages' live-update streams close too, here and on every instance.
  if (deleted.userId) await publish({ kind: "user-sessions-ended", id: deleted.userId });
  return { firstName: deleted.firstName, lastName: deleted.lastName };
}
