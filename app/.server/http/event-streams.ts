import { and, gt, inArray } from "drizzle-orm";
import { db } from "../platform/db/client";
import { outsideRequest } from "../platform/db/request-scope";
import { sessions } from "../platform/db/schema";
import { type RealtimeEvent, subscribe } from "../platform/realtime";

/**
 * The open `/events` streams of this process, by session
 * (docs/decisions/010-hardening-the-edge.md). A session may hold a few (one per open tab); each
 * stream ends when its session does: at sign-out and password reset (an
 * event from whichever instance handled it), and at expiry or when the
 * session row is gone (checked every half minute). A closed stream
 * leaves nothing behind: its listener, timers and entry go.
 */
export const MAX_STREAMS_PER_SESSION = 4;
const RECHECK_MS = 30_000;

type Stream = { sessionId: string; userId: string; close: (signedOut: boolean) => void };
const bySession = new Map<string, Set<Stream>>();
let recheck: ReturnType<typeof setInterval> | undefined;
let unsubscribe: (() => void) | undefined;

export function openStreamCount(): number {
  let count = 0;
  for (const set of bySession.values()) count += set.size;
  return count;
}

function onEvent(event: RealtimeEvent) {
  if (event.kind === "session-ended") closeWhere((stream) => stream.sessionId === event.id);
  if (event.kind === "user-sessions-ended") closeWhere((stream) => stream.userId === event.id);
}

function closeWhere(predicate: (stream: Stream) => boolean) {
  for (const set of [...bySession.values()]) {
    for (const stream of [...set]) if (predicate(stream)) stream.close(true);
  }
}

/**
 * Registers a stream; null when its session already holds the most streams.
 * `close` must end the stream and call the returned `release`; it is told
 * when the session has ended, so the browser can stop asking again.
 */
export function registerStream(
  session: { id: string; userId: string },
  close: (signedOut: boolean) => void,
): { release: () => void } | null {
  const set = bySession.get(session.id) ?? new Set<Stream>();
  if (set.size >= MAX_STREAMS_PER_SESSION) return null;
  const stream: Stream = { sessionId: session.id, userId: session.userId, close };
  set.add(stream);
  bySession.set(session.id, set);
  unsubscribe ??= subscribe(onEvent);
  recheck ??= outsideRequest(() => setInterval(() => void recheckStreams().catch(() => {}), RECHECK_MS));
  return {
    release() {
      set.delete(stream);
      if (set.size === 0) bySession.delete(session.id);
      if (bySession.size === 0) {
        clearInterval(recheck);
        recheck = undefined;
        unsubscribe?.();
        unsubscribe = undefined;
      }
    },
  };
}

/** Ends every stream whose session no longer exists or has expired. */
export async function recheckStreams(): Promise<void> {
  const ids = [...bySession.keys()];
  if (ids.length === 0) return;
  const live = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(inArray(sessions.id, ids), gt(sessions.expiresAt, new Date())));
  const liveIds = new Set(live.map((row) => row.id));
  closeWhere((stream) => !liveIds.has(stream.sessionId));
}
