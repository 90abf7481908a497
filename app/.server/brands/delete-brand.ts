import { eq } from "drizzle-orm";
import { can } from "~/lib/permissions";
import type { Actor } from "../authz";
import { db } from "../db/client";
import { brands } from "../db/schema";
import { ForbiddenError, NotFoundError } from "../errors";
import { deleteImageIfUnused } from "../images";
import { publish } from "../realtime";

/** Deletes a brand; profiles that used it are left without one (the foreign key sets null). */
export async function deleteBrand({ actor, brandId }: { actor: Actor; brandId: number }) {
  if (!can(actor.role, "manage:brand:any")) throw new ForbiddenError();
  const [deleted] = await db
    .delete(brands)
    .where(eq(brands.id, brandId))
    .returning({ id: brands.id, logo: brands.logo, coverImage: brands.coverImage });
  if (!deleted) throw new NotFoundError("brand");
  await Promise.all([deleteImageIfUnused(deleted.logo), deleteImageIfUnused(deleted.coverImage)]);
  await publish({ kind: "brand", id: String(deleted.id) });
}
