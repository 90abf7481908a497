import { useEffect, useRef } from "react";
import { useFetchers, useNavigation, useRevalidator } from "react-router";

export type RealtimeEvent = { kind: "profile" | "brand" | "view" | "settings"; id: string };

type Listener = (event: RealtimeEvent) => void;
const listeners = new Set<Listener>();
let source: EventSource | null = null;
let retryDelay = 1_000;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
const MAX_RETRY_MS = 30_000;

/** One stream per tab, shared by every component that listens; reconnects with back-off. */
function connect() {
  if (source || listeners.size === 0) return;
  const next = new EventSource("/events");
  source = next;
  next.addEventListener("open", () => {
    retryDelay = 1_000;
  });
  next.addEventListener("change", (message) => {
    let event: RealtimeEvent;
    try {
      event = JSON.parse((message as MessageEvent<string>).data) as RealtimeEvent;
    } catch {
      return;
    }
    for (const listener of listeners) listener(event);
  });
  next.addEventListener("error", () => {
    next.close();
    source = null;
    clearTimeout(retryTimer);
    retryTimer = setTimeout(connect, retryDelay);
    retryDelay = Math.min(retryDelay * 2, MAX_RETRY_MS);
  });
}

function useRealtime(listener: Listener, enabled = true) {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => {
    if (!enabled) return;
    const forward: Listener = (event) => latest.current(event);
    listeners.add(forward);
    connect();
    return () => {
      listeners.delete(forward);
      if (listeners.size === 0) {
        clearTimeout(retryTimer);
        source?.close();
        source = null;
      }
    };
  }, [enabled]);
}

/**
 * What a page refreshes for: a route's `handle.live` says whether an event
 * concerns what it shows, given its loader data. Without one, a page refreshes
 * for every change but views: a view changes only the count of one card, which
 * few pages show (docs/decisions/013-performance.md).
 */
export type LiveHandle = { live?: (event: RealtimeEvent, data: unknown) => boolean };

export function concernsPage(event: RealtimeEvent, handle: unknown, data: unknown): boolean {
  const live = (handle as LiveHandle | undefined)?.live;
  return live ? live(event, data) : event.kind !== "view";
}

/**
 * Refreshes wait for a quiet moment, so that a burst of changes (a room of
 * people scanning one card) costs one refresh: QUIET_MS after the last
 * relevant event, and never later than AT_MOST_MS after the first.
 */
const QUIET_MS = 600;
const AT_MOST_MS = 2_500;

/** Refreshes the page's data when others change something it shows. */
export function useLiveData(concerns: (event: RealtimeEvent) => boolean, enabled = true) {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const fetchers = useFetchers();
  // While this page submits or navigates, its own answer brings fresh data; a
  // refresh started now would also make React Router drop the save's redirect
  // (and with it the toast).
  const busy = useRef(false);
  busy.current = navigation.state !== "idle" || fetchers.some((fetcher) => fetcher.state !== "idle");
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const firstAt = useRef(0);
  useEffect(() => () => clearTimeout(pending.current), []);
  useRealtime((event) => {
    if (!concerns(event)) return;
    const now = Date.now();
    if (!pending.current) firstAt.current = now;
    clearTimeout(pending.current);
    const wait = Math.max(0, Math.min(QUIET_MS, firstAt.current + AT_MOST_MS - now));
    pending.current = setTimeout(() => {
      pending.current = undefined;
      if (document.visibilityState !== "hidden" && !busy.current) void revalidator.revalidate().catch(() => {});
    }, wait);
  }, enabled);
}
