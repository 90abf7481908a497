import { and, eq, sql } from "drizzle-orm";
import type { Actor } from "../actor";
import { recordAdminAction } from "../audit/record";
import { db } from "../db/client";
import { auditLog, profiles } from "../db/schema";
import { NotFoundError } from "../errors";
import { deleteImageIfUnused } from "../images";
import { publish } from "../realtime";
import { changeableProfiles } from "./scope";

/**
 * Erases a profile: the card, its views (by cascade), its old usernames and its
 * photo file. The audit log keeps that it was deleted and by whom, but the
 * field values its earlier entries held are erased with it
 * (docs/decisions/019-deactivation-and-audit-log.md).
 */
export async function deleteProfile({ actor, profileId }: { actor: Actor; profileId: string }) {
  const deleted = await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(profiles)
      .where(and(eq(profiles.id, profileId), changeableProfiles(actor, "delete")))
      .returning({
        id: profiles.id,
        firstName: profiles.firstName,
        lastName: profiles.lastName,
        username: profiles.username,
        profilePhoto: profiles.profilePhoto,
      });
    if (!row) return null;
    await tx
      .update(auditLog)
      .set({
        changes: sql`coalesce((select jsonb_object_agg(field, '["(erased)", "(erased)"]'::jsonb) from jsonb_object_keys(${auditLog.changes}) as field), '{}'::jsonb)`,
      })
      .where(and(eq(auditLog.targetKind, "profile"), eq(auditLog.targetId, row.id)));
    await recordAdminAction(tx, {
      actor,
      action: "delete",
      target: { kind: "profile", id: row.id, label: `${row.firstName} ${row.lastName} (@${row.username})` },
    });
    return row;
  });
  if (!deleted) throw new NotFoundError("profile");
  await deleteImageIfUnused(deleted.profilePhoto);
  await publish({ kind: "profile", id: deleted.id });
  return { firstName: deleted.firstName, lastName: deleted.lastName };
}
