import { createHmac } from "node:crypto";
import { sql } from "drizzle-orm";
import { isbot } from "isbot";
import { db, rowsOf } from "../db/client";
import { profiles, profileViews } from "../db/schema";
import { env } from "../env";
import { publish } from "../realtime";

/** A view counts once per viewer per profile per 30 minutes (docs/decisions/006-realtime-and-views.md). */
const VIEW_WINDOW_MINUTES = 30;
const VIEW_SOURCES = ["qr", "link", "directory"] as const;
/**
 * Anonymous views of one card from one network address within the window.
 * Generous for an office behind one address; it stops a script that changes
 * its browser name to inflate a count.
 */
const MAX_VIEWS_PER_NETWORK = 20;
export type ViewSource = (typeof VIEW_SOURCES)[number];

export function viewSourceOf(url: URL): ViewSource {
  const source = url.searchParams.get("src");
  return source === "qr" || source === "directory" ? source : "link";
}

/** Who is looking, as far as counting goes: their network address and browser. */
export type Visit = {
  ip: string | null;
  userAgent: string;
  /** The browser is prefetching the link, not visiting it. */
  prefetch: boolean;
};

function keyedHash(value: string) {
  return createHmac("sha256", env.AUTH_SECRET).update(value).digest("hex").slice(0, 32);
}

/** A keyed hash of an anonymous visitor's address and browser: no address is stored. */
function visitorHash(visit: Visit): string {
  return keyedHash(`${visit.ip ?? "unknown"}\n${visit.userAgent}`);
}

function networkHash(visit: Visit): string {
  return keyedHash(`network\n${visit.ip ?? "unknown"}`);
}

/**
 * Records a view of a card, when it counts: not the owner, not a bot, not the
 * same viewer within the window. `view_count` is incremented in the same
 * transaction, atomically, so concurrent views are never lost.
 */
export async function recordView(options: {
  visit: Visit;
  profileId: string;
  ownerUserId: string | null;
  viewerUserId: string | null;
  source: ViewSource;
}): Promise<boolean> {
  const { visit, profileId, ownerUserId, viewerUserId, source } = options;
  if (isbot(visit.userAgent)) return false;
  if (visit.prefetch) return false;
  if (viewerUserId && viewerUserId === ownerUserId) return false;

  const hash = viewerUserId ? null : visitorHash(visit);
  const network = viewerUserId ? null : networkHash(visit);
  const viewerKey = viewerUserId ? `u:${viewerUserId}` : `n:${network}`;
  return db.transaction(async (tx) => {
    // One viewer (or, for visitors, one network) of one profile at a time, so
    // neither two tabs nor a burst from one address can slip past the checks.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${profileId}), hashtext(${viewerKey}))`);
    const recent = await tx.execute(sql`
      select 1 from ${profileViews}
      where ${profileViews.profileId} = ${profileId}
        and ${viewerUserId ? sql`${profileViews.viewerUserId} = ${viewerUserId}` : sql`${profileViews.visitorHash} = ${hash}`}
        and ${profileViews.createdAt} > now() - make_interval(mins => ${VIEW_WINDOW_MINUTES})
      limit 1`);
    if (rowsOf(recent).length > 0) return false;
    if (network) {
      const [fromNetwork] = rowsOf(
        await tx.execute(sql`
          select count(*)::int as n from ${profileViews}
          where ${profileViews.profileId} = ${profileId} and ${profileViews.networkHash} = ${network}
            and ${profileViews.createdAt} > now() - make_interval(mins => ${VIEW_WINDOW_MINUTES})`),
      ) as { n: number }[];
      if ((fromNetwork?.n ?? 0) >= MAX_VIEWS_PER_NETWORK) return false;
    }
    await tx.insert(profileViews).values({ profileId, viewerUserId, visitorHash: hash, networkHash: network, source });
    await tx
      .update(profiles)
      .set({ viewCount: sql`${profiles.viewCount} + 1`, updatedAt: sql`${profiles.updatedAt}` })
      .where(sql`${profiles.id} = ${profileId}`);
    await publish({ kind: "view", id: profileId }, tx);
    return true;
  });
}
