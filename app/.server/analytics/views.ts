import { createHmac } from "node:crypto";
import { sql } from "drizzle-orm";
import { isbot } from "isbot";
import { db, rowsOf } from "../platform/db/client";
import { databaseErrorLine } from "../platform/db/errors";
import { outsideRequest } from "../platform/db/request-scope";
import { profiles, profileViews, users } from "../platform/db/schema";
import { diskSpaceLow } from "../platform/disk-space";
import { env } from "../platform/env";
import { publish } from "../platform/realtime";
import { ViewJournal } from "./view-journal";

/**
 * Views are counted once per viewer per profile per 30 minutes
 * (docs/decisions/006-realtime-and-views.md), decided in memory while the page
 * is answered and written in batches off the response path
 * (docs/decisions/018-reused-cards-and-batched-views.md).
 */
const VIEW_WINDOW_MINUTES = 30;
const VIEW_WINDOW_MS = VIEW_WINDOW_MINUTES * 60_000;
const VIEW_SOURCES = ["qr", "link", "directory"] as const;
/**
 * Anonymous views of one card from one network address within the window.
 * Generous for an office behind one address; it stops a script that changes
 * its browser name to inflate a count.
 */
const MAX_VIEWS_PER_NETWORK = 20;
/** How long a counted view waits for its batch at most, and the most views one batch writes. */
const FLUSH_AFTER_MS = 250;
const BATCH_SIZE = 500;
/** Views waiting to be written at most: past it a view is not counted, and not shown as counted. */
const MAX_WAITING = 20_000;
/** Viewers (and networks) remembered for the window at most; the oldest are forgotten first. */
const MAX_REMEMBERED = 100_000;
/** A failed batch is tried again after this, doubling up to the most. */
const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 30_000;

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

type WaitingView = {
  profileId: string;
  viewerUserId: string | null;
  visitorHash: string | null;
  networkHash: string | null;
  source: ViewSource;
  at: Date;
  /** The journal segment holding it until it commits. */
  segment?: string;
};

type JournaledView = Omit<WaitingView, "at" | "segment"> & { at: string };

/** Where counted views wait on disk for their batch; none when nothing lives in DATA_DIR. */
let journal: ViewJournal<JournaledView> | undefined;

/** Counted views not yet written, oldest first. */
const waiting: WaitingView[] = [];
/** Per profile: views counted and not yet committed (waiting or in a batch being written). */
const uncommitted = new Map<string, number>();
/** `profile viewer` → when that viewer was last counted; in the order they were counted. */
const recent = new Map<string, number>();
/** `profile network` → when each view from that network was counted; in the order of the latest. */
const networks = new Map<string, number[]>();

const viewerKeyOf = (profileId: string, viewer: string) => `${profileId} ${viewer}`;

/** Forgets what is older than the window, and the oldest entries past the most remembered. */
function forgetOld(now: number) {
  for (const [key, at] of recent) {
    if (at > now - VIEW_WINDOW_MS && recent.size <= MAX_REMEMBERED) break;
    recent.delete(key);
  }
  for (const [key, times] of networks) {
    if ((times.at(-1) ?? 0) > now - VIEW_WINDOW_MS && networks.size <= MAX_REMEMBERED) break;
    networks.delete(key);
  }
}

function remember(viewerKey: string, networkKey: string | null, at: number) {
  recent.delete(viewerKey);
  recent.set(viewerKey, at);
  if (networkKey) {
    const times = (networks.get(networkKey) ?? []).filter((time) => time > at - VIEW_WINDOW_MS);
    times.push(at);
    networks.delete(networkKey);
    networks.set(networkKey, times);
  }
}

/**
 * Counts a view of a card, when it counts: not the owner, not a bot, not a
 * prefetch, not the same viewer within the window, not past the cap of one
 * network. Decided at once, in memory; the view is written with the next
 * batch, which checks the same rule against the database again (so other
 * instances, and views from before a restart, are respected).
 */
export function countView(options: {
  visit: Visit;
  profileId: string;
  ownerUserId: string | null;
  viewerUserId: string | null;
  source: ViewSource;
}): boolean {
  const { visit, profileId, ownerUserId, viewerUserId, source } = options;
  if (visit.prefetch) return false;
  if (viewerUserId && viewerUserId === ownerUserId) return false;
  if (isbot(visit.userAgent)) return false;
  if (waiting.length >= MAX_WAITING) return false;

  const now = Date.now();
  const hash = viewerUserId ? null : visitorHash(visit);
  const network = viewerUserId ? null : networkHash(visit);
  const viewerKey = viewerKeyOf(profileId, viewerUserId ? `u:${viewerUserId}` : `v:${hash}`);
  const seen = recent.get(viewerKey);
  if (seen !== undefined && seen > now - VIEW_WINDOW_MS) return false;
  const networkKey = network ? `${profileId} ${network}` : null;
  if (networkKey) {
    const fromNetwork = (networks.get(networkKey) ?? []).filter((time) => time > now - VIEW_WINDOW_MS);
    if (fromNetwork.length >= MAX_VIEWS_PER_NETWORK) return false;
  }
  const view: WaitingView = {
    profileId,
    viewerUserId,
    visitorHash: hash,
    networkHash: network,
    source,
    at: new Date(now),
  };
  if (journal) {
    try {
      view.segment = journal.append({ ...view, at: view.at.toISOString() });
    } catch (error) {
      // Not on disk (a full disk): not counted, so never shown as counted and then lost.
      console.error(`[views] a view could not be written down, so it was not counted: ${(error as Error).message}`);
      return false;
    }
  }
  remember(viewerKey, networkKey, now);
  forgetOld(now);
  waiting.push(view);
  uncommitted.set(profileId, (uncommitted.get(profileId) ?? 0) + 1);
  scheduleFlush(FLUSH_AFTER_MS);
  return true;
}

/** Views of a card counted here and not yet in its `view_count`: what a page adds to the stored count. */
export function uncommittedViews(profileId: string): number {
  return uncommitted.get(profileId) ?? 0;
}

type WrittenListener = (profileIds: ReadonlySet<string>) => void;
const writtenListeners = new Set<WrittenListener>();

/** Called, at once, when a batch has been committed: the stored counts of these cards changed. */
export function onViewsWritten(listener: WrittenListener): () => void {
  writtenListeners.add(listener);
  return () => writtenListeners.delete(listener);
}

let timer: ReturnType<typeof setTimeout> | undefined;
let writing: Promise<void> | undefined;
let retryDelay = RETRY_MIN_MS;

function scheduleFlush(delay: number) {
  if (timer || writing) return;
  timer = outsideRequest(() =>
    setTimeout(() => {
      timer = undefined;
      flushViews().catch((error: unknown) => {
        // While the disk is too full for changes, that one line (app/.server/platform/disk-space.ts) says why.
        if (!diskSpaceLow()) {
          console.error(`[views] ${waiting.length} views could not be written yet: ${databaseErrorLine(error)}`);
        }
        scheduleFlush(retryDelay);
        retryDelay = Math.min(retryDelay * 2, RETRY_MAX_MS);
      });
    }, delay),
  );
  // Waiting views never keep a process alive by themselves: a clean stop writes them (stopCountingViews).
  timer.unref();
}

/** The order rows are locked in: plain code-unit order, the same in every process (not the locale's). */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Writes every waiting view now; resolves when they are committed. */
export async function flushViews(): Promise<void> {
  clearTimeout(timer);
  timer = undefined;
  while (writing) await writing;
  if (waiting.length === 0) return;
  writing = (async () => {
    while (waiting.length > 0) {
      const batch = waiting.slice(0, BATCH_SIZE);
      await writeBatch(batch);
      waiting.splice(0, batch.length);
      const touched = new Set<string>();
      const bySegment = new Map<string, number>();
      for (const view of batch) {
        touched.add(view.profileId);
        if (view.segment) bySegment.set(view.segment, (bySegment.get(view.segment) ?? 0) + 1);
        const left = (uncommitted.get(view.profileId) ?? 1) - 1;
        if (left > 0) uncommitted.set(view.profileId, left);
        else uncommitted.delete(view.profileId);
      }
      for (const [segment, count] of bySegment) journal?.committed(segment, count);
      for (const listener of writtenListeners) listener(touched);
    }
    retryDelay = RETRY_MIN_MS;
  })();
  try {
    await writing;
  } finally {
    writing = undefined;
    if (waiting.length > 0) scheduleFlush(FLUSH_AFTER_MS);
  }
}

/**
 * One transaction per batch. Each view is checked against the database under
 * the same advisory lock as ever, on (profile, viewer) or, for visitors,
 * (profile, network), taken in one order by every instance; each card's
 * `view_count` moves by what was inserted, and one event per card goes out on
 * commit. A card deleted meanwhile takes its views with it.
 */
async function writeBatch(batch: WaitingView[]) {
  const lockKey = (view: WaitingView) => (view.viewerUserId ? `u:${view.viewerUserId}` : `n:${view.networkHash}`);
  // Cards in the one order every writer of cards takes them (plain string order of their ids: see
  // imports/run.ts), so a batch and an import never wait for each other in a circle.
  const ordered = [...batch].sort((a, b) => compareIds(a.profileId, b.profileId) || compareIds(lockKey(a), lockKey(b)));
  await db.transaction(async (tx) => {
    // The cards are locked first, in that order, as the count's update will: a view's foreign key
    // alone takes a share lock that the update would then have to raise, and a writer asking for
    // the card in between would wait on this batch while it waits on the writer (a deadlock).
    const cardIds = [...new Set(ordered.map((view) => view.profileId))];
    await tx.execute(sql`select 1 from ${profiles}
      where ${profiles.id} in (${sql.join(
        cardIds.map((id) => sql`${id}`),
        sql`, `,
      )})
      order by ${profiles.id} for no key update`);
    const added = new Map<string, number>();
    for (const view of ordered) {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${view.profileId}), hashtext(${lockKey(view)}))`);
      const since = sql`${new Date(view.at.getTime() - VIEW_WINDOW_MS).toISOString()}::timestamptz`;
      const sameViewer = view.viewerUserId
        ? sql`${profileViews.viewerUserId} = ${view.viewerUserId}`
        : sql`${profileViews.visitorHash} = ${view.visitorHash}`;
      const underNetworkCap = view.networkHash
        ? sql`(select count(*) from ${profileViews}
               where ${profileViews.profileId} = ${view.profileId} and ${profileViews.networkHash} = ${view.networkHash}
                 and ${profileViews.createdAt} > ${since}) < ${MAX_VIEWS_PER_NETWORK}`
        : sql`true`;
      const inserted = await tx.execute(sql`
        insert into ${profileViews} (profile_id, viewer_user_id, visitor_hash, network_hash, source, created_at)
        select ${view.profileId}, (select id from ${users} where ${users.id} = ${view.viewerUserId}), ${view.visitorHash},
               ${view.networkHash}, ${view.source}, ${view.at.toISOString()}::timestamptz
        where exists (select 1 from ${profiles} where ${profiles.id} = ${view.profileId})
          and not exists (
            select 1 from ${profileViews}
            where ${profileViews.profileId} = ${view.profileId} and ${sameViewer} and ${profileViews.createdAt} > ${since})
          and ${underNetworkCap}
        returning 1`);
      if (rowsOf(inserted).length > 0) added.set(view.profileId, (added.get(view.profileId) ?? 0) + 1);
    }
    for (const [profileId, count] of added) {
      await tx
        .update(profiles)
        .set({ viewCount: sql`${profiles.viewCount} + ${count}`, updatedAt: sql`${profiles.updatedAt}` })
        .where(sql`${profiles.id} = ${profileId}`);
      await publish({ kind: "view", id: profileId }, tx);
    }
  });
}

/**
 * Remembers the viewers already counted in the window, so that a restart does
 * not count a reload twice on the page (the batch would not store it anyway).
 * With `journalDir`, counted views are written down there until they commit,
 * and those a previous process left are written now.
 */
export async function startCountingViews(options: { journalDir?: string } = {}): Promise<void> {
  if (options.journalDir) {
    const opened = ViewJournal.open<JournaledView>(options.journalDir);
    journal = opened.journal;
    for (const { segment, view } of opened.left) {
      waiting.push({ ...view, at: new Date(view.at), segment });
      uncommitted.set(view.profileId, (uncommitted.get(view.profileId) ?? 0) + 1);
    }
    if (opened.left.length > 0) {
      console.info(`[views] ${opened.left.length} views counted before the last stop are being written`);
      scheduleFlush(0);
    }
  }
  const rows = rowsOf(
    await db.execute(sql`
      select ${profileViews.profileId} as "profileId", ${profileViews.viewerUserId} as "viewerUserId",
             ${profileViews.visitorHash} as "visitorHash", ${profileViews.networkHash} as "networkHash",
             ${profileViews.createdAt} as "createdAt"
      from ${profileViews}
      where ${profileViews.createdAt} > now() - make_interval(mins => ${VIEW_WINDOW_MINUTES})
      order by ${profileViews.createdAt} desc
      limit ${MAX_REMEMBERED}`),
  ) as {
    profileId: string;
    viewerUserId: string | null;
    visitorHash: string | null;
    networkHash: string | null;
    createdAt: string | Date;
  }[];
  for (const row of rows.reverse()) {
    const viewer = row.viewerUserId ? `u:${row.viewerUserId}` : row.visitorHash ? `v:${row.visitorHash}` : null;
    if (!viewer) continue;
    remember(
      viewerKeyOf(row.profileId, viewer),
      row.networkHash ? `${row.profileId} ${row.networkHash}` : null,
      new Date(row.createdAt).getTime(),
    );
  }
}

/** The last step before the database closes: every counted view is written (a clean stop loses none). */
export async function stopCountingViews(): Promise<void> {
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await flushViews();
        return;
      } catch (error) {
        if (attempt >= 3) {
          const kept = journal ? ": they are kept on disk and written at the next start" : "";
          console.error(
            `[views] ${waiting.length} counted views could not be written (${databaseErrorLine(error)})${kept}`,
          );
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, RETRY_MIN_MS * attempt));
      }
    }
  } finally {
    journal?.close();
    journal = undefined;
  }
}
