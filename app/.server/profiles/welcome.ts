import { and, eq, gt, lt, sql } from "drizzle-orm";
import { db } from "../db/client";
import { profiles, users } from "../db/schema";

/** How long after claiming a prepared card its owner is welcomed as new. */
const WELCOME_HOURS = 24;

/**
 * Whether the member claimed, within the last day, a card an administrator
 * had prepared before their account existed (rather than one made for them).
 */
export async function claimedPreparedCardRecently(userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(
      and(
        eq(profiles.userId, userId),
        lt(profiles.createdAt, users.createdAt),
        gt(profiles.claimedAt, sql`now() - make_interval(hours => ${WELCOME_HOURS})`),
      ),
    )
    .limit(1);
  return row !== undefined;
}
