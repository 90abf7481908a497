import { and, eq, gt, lt, sql } from "drizzle-orm";
import { db } from "../platform/db/client";
import { profiles, users } from "../platform/db/schema";

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

/** Whether the account is on its first sign-in: its home then says "Welcome", not "Welcome back". */
export async function isFirstSignIn(userId: string): Promise<boolean> {
  const [row] = await db.select({ count: users.signInCount }).from(users).where(eq(users.id, userId));
  return (row?.count ?? 0) <= 1;
}

/** What a new card still lacks to be complete: each step of the home's short setup list. */
export async function setupSteps(profileId: string) {
  const [card] = await db
    .select({
      photo: profiles.profilePhoto,
      title: profiles.title,
      links: profiles.links,
      linkedinUrl: profiles.linkedinUrl,
    })
    .from(profiles)
    .where(eq(profiles.id, profileId));
  if (!card) return [];
  return [
    { key: "photo", label: "Add a photo", done: card.photo !== null },
    { key: "title", label: "Add your job title", done: !!card.title },
    { key: "links", label: "Add a link (LinkedIn, a website)", done: card.links.length > 0 || !!card.linkedinUrl },
  ];
}
