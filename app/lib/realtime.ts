import { useContext, useEffect, useRef } from "react";
import { UNSAFE_DataRouterContext, useRevalidator } from "react-router";

export type RealtimeEvent = { kind: "profile" | "brand" | "view" | "settings"; id: string };

type Listener = (event: RealtimeEvent) => void;
const listeners = new Set<Listener>();
const MAX_RETRY_MS = 30_000;

/** Counts the events this page heard (`<html data-live-events>`), so a test can wait for one to arrive. */
let heard = 0;

function dispatch(event: RealtimeEvent) {
  heard++;
  document.documentElement.dataset.liveEvents = String(heard);
  for (const listener of listeners) listener(event);
}

/**
 * One `/events` stream, reopened with back-off when it fails. Returns how to
 * close it for good.
 */
/** Whether the page receives live updates, or has been told its session ended. */
type StreamState = "connected" | "closed" | "signed-out";

function openStream(onEvent: Listener, onState: (state: StreamState) => void): () => void {
  let source: EventSource | null = null;
  let retryDelay = 1_000;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  const connect = () => {
    if (closed) return;
    const next = new EventSource("/events");
    source = next;
    next.addEventListener("open", () => {
      retryDelay = 1_000;
      onState("connected");
    });
    next.addEventListener("change", (message) => {
      try {
        onEvent(JSON.parse((message as MessageEvent<string>).data) as RealtimeEvent);
      } catch {
        // not an event of ours
      }
    });
    // The session ended (signed out, reset, deactivated): asking again would only be refused.
    next.addEventListener("signed-out", () => {
      closed = true;
      clearTimeout(retryTimer);
      next.close();
      source = null;
      onState("signed-out");
    });
    next.addEventListener("error", () => {
      if (closed) return;
      next.close();
      source = null;
      onState("closed");
      clearTimeout(retryTimer);
      retryTimer = setTimeout(connect, retryDelay);
      retryDelay = Math.min(retryDelay * 2, MAX_RETRY_MS);
    });
  };
  connect();
  return () => {
    closed = true;
    clearTimeout(retryTimer);
    source?.close();
    source = null;
    onState("closed");
  };
}

/** Marks the page while it receives live updates (`<html data-live="connected">`), or once its session ended (`signed-out`). */
function showState(state: StreamState) {
  if (state !== "closed") document.documentElement.dataset.live = state;
  else delete document.documentElement.dataset.live;
}

/**
 * One stream per browser, not per tab (docs/decisions/018-reused-cards-and-batched-views.md): over
 * HTTP/1.1 a browser opens at most six connections to a site, and a stream
 * per tab left the seventh tab with none to load its page. The tabs that
 * listen elect a leader with a Web Lock; the leader holds the stream and
 * relays its events to the other tabs over a BroadcastChannel. When the
 * leader closes (or stops listening), the browser hands the lock to the next
 * tab, which opens the stream. Browsers without either API keep a stream per tab.
 */
const CHANNEL = "namecard-events";
const LEADER_LOCK = "namecard-events-leader";
type Message = { type: "event"; event: RealtimeEvent } | { type: "state"; state: StreamState } | { type: "ask" };

let leave: (() => void) | null = null;

function join() {
  if (leave) return;
  if (typeof BroadcastChannel === "undefined" || !navigator.locks) {
    leave = openStream(dispatch, showState);
    return;
  }
  const channel = new BroadcastChannel(CHANNEL);
  const stop = new AbortController();
  let leading = false;
  let current: StreamState = "closed";
  channel.addEventListener("message", (message: MessageEvent<Message>) => {
    const data = message.data;
    if (data.type === "event") dispatch(data.event);
    else if (data.type === "state") showState(data.state);
    else if (data.type === "ask" && leading) channel.postMessage({ type: "state", state: current } satisfies Message);
  });
  // Whoever leads says whether the stream is open.
  channel.postMessage({ type: "ask" } satisfies Message);
  navigator.locks
    .request(LEADER_LOCK, { signal: stop.signal }, () => {
      leading = true;
      const close = openStream(
        (event) => {
          dispatch(event);
          channel.postMessage({ type: "event", event } satisfies Message);
        },
        (state) => {
          current = state;
          showState(state);
          channel.postMessage({ type: "state", state } satisfies Message);
        },
      );
      // Held until this tab stops listening (or closes, which releases it too).
      return new Promise<void>((resolve) => {
        stop.signal.addEventListener("abort", () => {
          close();
          resolve();
        });
      });
    })
    .catch(() => {
      // Stopped listening before this tab was asked to lead.
    });
  leave = () => {
    stop.abort();
    channel.close();
    showState("closed");
  };
}

function useRealtime(listener: Listener, enabled = true) {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => {
    if (!enabled) return;
    const forward: Listener = (event) => latest.current(event);
    listeners.add(forward);
    join();
    return () => {
      listeners.delete(forward);
      if (listeners.size === 0) {
        leave?.();
        leave = null;
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

/**
 * Whether the page is busy with something of its own, by the router's state
 * itself (not by what a render shows: React renders the router's updates as
 * transitions, which may come late or be dropped):
 * - while it submits or navigates, its own answer brings fresh data, and a
 *   refresh started now would make React Router drop the save's redirect (and
 *   with it the toast);
 * - while a form that failed shows its messages from the action's answer:
 *   React Router drops that answer at the next load of the page, so a refresh
 *   would wipe the messages (and the values typed) while the person reads them.
 */
function isBusy(state: RouterState): boolean {
  if (state.navigation.state !== "idle" || state.actionData != null) return true;
  for (const fetcher of state.fetchers.values()) if (fetcher.state !== "idle") return true;
  return false;
}

type RouterState = { navigation: { state: string }; actionData?: unknown; fetchers: Map<string, { state: string }> };

/** Refreshes the page's data when others change something it shows. */
export function useLiveData(concerns: (event: RealtimeEvent) => boolean, enabled = true) {
  const revalidator = useRevalidator();
  const router = useContext(UNSAFE_DataRouterContext)?.router;
  // A refresh skipped while busy is made once the router says the page is free again, so nothing stays stale.
  const missed = useRef(false);
  useEffect(() => {
    if (!router) return;
    return router.subscribe((state) => {
      if (!missed.current || isBusy(state) || document.visibilityState === "hidden") return;
      missed.current = false;
      // After the router has finished telling everyone of this change, and only if the page is
      // still free then: a save sent meanwhile is on its way, and a load started before its answer
      // would make React Router drop its redirect and the toast with it.
      setTimeout(() => {
        if (isBusy(router.state)) missed.current = true;
        else void router.revalidate().catch(() => {});
      }, 0);
    });
  }, [router]);
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const firstAt = useRef(0);
  useEffect(
    () => () => {
      clearTimeout(pending.current);
      delete document.documentElement.dataset.livePending;
    },
    [],
  );
  useRealtime((event) => {
    if (!concerns(event)) return;
    const now = Date.now();
    if (!pending.current) firstAt.current = now;
    clearTimeout(pending.current);
    const wait = Math.max(0, Math.min(QUIET_MS, firstAt.current + AT_MOST_MS - now));
    // `<html data-live-pending>` while a refresh waits for its quiet moment: tests wait for it to pass.
    document.documentElement.dataset.livePending = "";
    pending.current = setTimeout(() => {
      pending.current = undefined;
      delete document.documentElement.dataset.livePending;
      if (document.visibilityState === "hidden") return;
      if (router && isBusy(router.state)) missed.current = true;
      else void revalidator.revalidate().catch(() => {});
    }, wait);
  }, enabled);
}
