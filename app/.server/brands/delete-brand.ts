import { eq } from "drizzle-orm";
import { can } from "~/lib/permissions";
import { recordAdminAction } from "../audit/record";
import type { Actor } from "../platform/actor";
import { db } from "../platform/db/client";
import { brands } from "../platform/db/schema";
import { ForbiddenError, NotFoundError } from "../platform/errors";
import { deleteImageIfUnused } from "../platform/images";
import { publish } from "../platform/realtime";

/** Deletes a brand; profiles that used it are left without one (the foreign key sets null). */
export async function deleteBrand({ actor, brandId }: { actor: Actor; brandId: number }) {
  if (!can(actor.role, "manage:brand:any")) throw new ForbiddenError();
  const deleted = await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(brands)
      .where(eq(brands.id, brandId))
      .returning({ id: brands.id, name: brands.name, logo: brands.logo, coverImage: brands.coverImage });
    if (row)
      await recordAdminAction(tx, { actor, action: "delete", target: { kind: "brand", id: row.id, label: row.name } });
    return row;
  });
  if (!deleted) throw new NotFoundError("brand");
  await Promise.all([deleteImageIfUnused(deleted.logo), deleteImageIfUnused(deleted.coverImage)]);
  await publish({ kind: "brand", id: String(deleted.id) });
}
