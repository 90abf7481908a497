import { eq } from "drizzle-orm";
import type { Queryable } from "../platform/db/client";
import { profiles, users } from "../platform/db/schema";
import { NotFoundError } from "../platform/errors";

/**
 * A card and the account that claimed it (none: every account field null), the card's row
 * locked until the transaction ends: what changing a person's role, brands or second step
 * reads first. A card that does not exist is not found.
 */
export async function lockedCardAndAccount(tx: Queryable, profileId: string) {
  const [card] = await tx
    .select({
      id: profiles.id,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      username: profiles.username,
      deactivatedAt: profiles.deactivatedAt,
      userId: users.id,
      email: users.email,
      role: users.role,
      twoFactorEnabled: users.twoFactorEnabled,
    })
    .from(profiles)
    .leftJoin(users, eq(users.id, profiles.userId))
    .where(eq(profiles.id, profileId))
    .for("update", { of: profiles });
  if (!card) throw new NotFoundError("profile");
  return card;
}
