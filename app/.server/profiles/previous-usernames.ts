import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import { decide } from "~/lib/permissions";
import { managedCards } from "../access/scope";
import { recordAdminAction } from "../audit/record";
import type { Actor } from "../platform/actor";
import { db, type Queryable } from "../platform/db/client";
import { profiles, throttleEvents, usernameRedirects } from "../platform/db/schema";
import { ForbiddenError, NotFoundError, ValidationError } from "../platform/errors";
import { publish } from "../platform/realtime";
import { keyedHash } from "../platform/tokens";
import { cardLabel } from "./card-writer";
import { isPossibleUsername, oldNameLive } from "./usernames";

/** Old names a card keeps at most: the newest; older ones are free for others again. */
export const MAX_PREVIOUS_USERNAMES = 3;
/** How long an old name leads to its card (and nobody else may take it). */
export const OLD_USERNAME_DAYS = 365;
/** How long a deleted card's names stay reserved, so its printed QR codes never lead to a stranger. */
export const DELETED_CARD_NAMES_DAYS = 90;
/** How often a member may change their own username. */
export const MEMBER_RENAMES = { max: 3, days: 30 } as const;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A card's username changed: its old name now leads to the card (printed QR
 * codes keep working) and stays reserved for it. Taking an old name back
 * removes it from the list. A card keeps its MAX_PREVIOUS_USERNAMES newest old
 * names, so nobody can hold a row of names (`ceo`, `hr`, `john.smith`) by
 * renaming through them. Runs inside the update's transaction.
 */
export async function recordUsernameChange(tx: Queryable, profileId: string, from: string, to: string) {
  const [previous, next] = [from.toLowerCase(), to.toLowerCase()];
  if (previous === next) return;
  await tx
    .delete(usernameRedirects)
    .where(and(eq(usernameRedirects.username, next), eq(usernameRedirects.profileId, profileId)));
  const expiresAt = new Date(Date.now() + OLD_USERNAME_DAYS * DAY_MS);
  await tx
    .insert(usernameRedirects)
    .values({ username: previous, profileId, expiresAt })
    .onConflictDoUpdate({ target: usernameRedirects.username, set: { profileId, createdAt: new Date(), expiresAt } });
  await tx.execute(sql`
    delete from ${usernameRedirects}
    where ${usernameRedirects.profileId} = ${profileId}
      and ${usernameRedirects.username} not in (
        select ${usernameRedirects.username} from ${usernameRedirects}
        where ${usernameRedirects.profileId} = ${profileId}
        order by ${usernameRedirects.createdAt} desc, ${usernameRedirects.username}
        limit ${MAX_PREVIOUS_USERNAMES}
      )`);
}

/** Whether `username` was another card's (or a deleted card's) and is still reserved for it. */
export async function isPreviousUsernameOfAnother(username: string, profileId: string | null): Promise<boolean> {
  const [row] = await db
    .select({ profileId: usernameRedirects.profileId })
    .from(usernameRedirects)
    .where(
      and(
        eq(usernameRedirects.username, username.toLowerCase()),
        oldNameLive(),
        profileId
          ? or(isNull(usernameRedirects.profileId), sql`${usernameRedirects.profileId} <> ${profileId}`)
          : sql`true`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * An administrator lets go of one of a card's old names (a name someone else
 * should have, say): it stops leading to the card and is free for anyone at
 * once. On the record, like any change to a card.
 */
export async function releaseOldUsername({
  actor,
  profileId,
  username,
}: {
  actor: Actor;
  profileId: string;
  username: string;
}) {
  if (!decide(actor, "update:profile")) throw new ForbiddenError();
  await db.transaction(async (tx) => {
    // Another brand's card, or one the actor only owns, looks like no card at all.
    const [reachable] = await tx
      .select({ id: profiles.id })
      .from(profiles)
      .where(and(eq(profiles.id, profileId), managedCards(actor)));
    if (!reachable) throw new NotFoundError("old username");
    const [released] = await tx
      .delete(usernameRedirects)
      .where(and(eq(usernameRedirects.username, username.toLowerCase()), eq(usernameRedirects.profileId, profileId)))
      .returning({ username: usernameRedirects.username });
    const [card] = await tx
      .select({ firstName: profiles.firstName, lastName: profiles.lastName, username: profiles.username })
      .from(profiles)
      .where(eq(profiles.id, profileId));
    if (!released || !card) throw new NotFoundError("old username");
    await recordAdminAction(tx, {
      actor,
      action: "update",
      target: { kind: "profile", id: profileId, label: cardLabel(card) },
      changes: { oldUsername: [released.username, null] },
    });
  });
  await publish({ kind: "profile", id: profileId });
}

/** The old names a card keeps now (before it is deleted, say). */
export async function oldNamesOf(tx: Queryable, profileId: string): Promise<string[]> {
  const rows = await tx
    .select({ username: usernameRedirects.username })
    .from(usernameRedirects)
    .where(and(eq(usernameRedirects.profileId, profileId), oldNameLive()));
  return rows.map((row) => row.username);
}

/**
 * A card was deleted: its name and old names stay reserved for
 * DELETED_CARD_NAMES_DAYS, leading nowhere, so nobody else's card answers its
 * printed QR codes. Runs in the deletion's transaction.
 */
export async function reserveNamesOfDeletedCard(tx: Queryable, usernames: string[]) {
  const expiresAt = new Date(Date.now() + DELETED_CARD_NAMES_DAYS * DAY_MS);
  for (const username of new Set(usernames.map((name) => name.toLowerCase()))) {
    await tx
      .insert(usernameRedirects)
      .values({ username, profileId: null, expiresAt })
      .onConflictDoUpdate({
        target: usernameRedirects.username,
        set: { profileId: null, createdAt: new Date(), expiresAt },
      });
  }
}

/**
 * A member may change their own username MEMBER_RENAMES.max times in
 * MEMBER_RENAMES.days days: renaming is how names get hoarded. Administrators
 * are not limited. Counted per card; a refused rename changes nothing.
 */
export async function assertMayRename(profileId: string, now = new Date()) {
  const key = keyedHash("rename", profileId);
  const since = new Date(now.getTime() - MEMBER_RENAMES.days * DAY_MS);
  const renames = await db
    .select({ at: throttleEvents.createdAt })
    .from(throttleEvents)
    .where(and(eq(throttleEvents.key, key), gt(throttleEvents.createdAt, since)))
    .orderBy(throttleEvents.createdAt);
  if (renames.length < MEMBER_RENAMES.max) return;
  const next = new Date((renames[0]?.at ?? now).getTime() + MEMBER_RENAMES.days * DAY_MS);
  const day = next.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
  throw new ValidationError({
    username: [
      `You can change your username ${MEMBER_RENAMES.max} times in ${MEMBER_RENAMES.days} days. You can change it again on ${day}.`,
    ],
  });
}

/** Counts a member's own rename, in the rename's transaction. */
export async function countRename(tx: Queryable, profileId: string) {
  await tx.insert(throttleEvents).values({ key: keyedHash("rename", profileId) });
}

/** The card's username now, when `username` is one it had before; else null (also for a deactivated card, whose new name it must not reveal). */
async function currentUsernameOf(username: string): Promise<string | null> {
  if (!isPossibleUsername(username)) return null;
  const [row] = await db
    .select({ username: profiles.username })
    .from(usernameRedirects)
    .innerJoin(profiles, eq(profiles.id, usernameRedirects.profileId))
    .where(and(eq(usernameRedirects.username, username.toLowerCase()), oldNameLive(), isNull(profiles.deactivatedAt)))
    .limit(1);
  return row?.username ?? null;
}

/** The public addresses of a card by username: the card, its QR page and its files. */
const CARD_ADDRESS = /^\/(profile|qr)\/([^/]+?)(\/(?:contact\.vcf|qr\.png|og\.png))?(\.data)?$/;

/**
 * Where a request for a card under a previous username belongs: the same
 * address under the card's username now (with its query), or null.
 */
export async function movedCardAddress(url: URL): Promise<string | null> {
  const match = CARD_ADDRESS.exec(url.pathname);
  if (!match) return null;
  const [, kind, encoded, file = "", data = ""] = match;
  if (kind === "qr" && file) return null;
  let username: string;
  try {
    username = decodeURIComponent(encoded ?? "");
  } catch {
    return null;
  }
  if (username.toLowerCase() === "edit") return null;
  const current = await currentUsernameOf(username);
  if (!current || current.toLowerCase() === username.toLowerCase()) return null;
  return `/${kind}/${encodeURIComponent(current)}${file}${data}${url.search}`;
}
