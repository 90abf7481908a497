import { and, eq, isNull, ne, sql } from "drizzle-orm";
import { db, type Queryable } from "../db/client";
import { profiles, usernameRedirects } from "../db/schema";
import { isPossibleUsername } from "./usernames";

/** Old names a card keeps at most: the newest; older ones are free for others again. */
export const MAX_PREVIOUS_USERNAMES = 3;

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
  await tx
    .insert(usernameRedirects)
    .values({ username: previous, profileId })
    .onConflictDoUpdate({ target: usernameRedirects.username, set: { profileId, createdAt: new Date() } });
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

/** Whether `username` was another card's and still redirects to it. */
export async function isPreviousUsernameOfAnother(username: string, profileId: string | null): Promise<boolean> {
  const [row] = await db
    .select({ profileId: usernameRedirects.profileId })
    .from(usernameRedirects)
    .where(
      and(
        eq(usernameRedirects.username, username.toLowerCase()),
        profileId ? ne(usernameRedirects.profileId, profileId) : sql`true`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The card's username now, when `username` is one it had before; else null (also for a deactivated card, whose new name it must not reveal). */
async function currentUsernameOf(username: string): Promise<string | null> {
  if (!isPossibleUsername(username)) return null;
  const [row] = await db
    .select({ username: profiles.username })
    .from(usernameRedirects)
    .innerJoin(profiles, eq(profiles.id, usernameRedirects.profileId))
    .where(and(eq(usernameRedirects.username, username.toLowerCase()), isNull(profiles.deactivatedAt)))
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
