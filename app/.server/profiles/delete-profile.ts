import { and, eq } from "drizzle-orm";
import type { Actor } from "../authz";
import { db } from "../db/client";
import { profiles } from "../db/schema";
import { NotFoundError } from "../errors";
import { deleteImageIfUnused } from "../images";
import { publish } from "../realtime";
import { changeableProfiles } from "./scope";

/** Deletes a profile, its views (by cascade) and its photo file. */
export async function deleteProfile({ actor, profileId }: { actor: Actor; profileId: string }) {
  const [deleted] = await db
    .delete(profiles)
    .where(and(eq(profiles.id, profileId), changeableProfiles(actor, "delete")))
    .returning({
      id: profiles.id,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      profilePhoto: profiles.profilePhoto,
    });
  if (!deleted) throw new NotFoundError("profile");
  await deleteImageIfUnused(deleted.profilePhoto);
  await publish({ kind: "profile", id: deleted.id });
  return { firstName: deleted.firstName, lastName: deleted.lastName };
}
