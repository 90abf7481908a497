/** A message shown once after a write, carried across the redirect in a signed cookie. */
export type Toast = {
  id: string;
  tone: "success" | "error";
  text: string;
  /** How long it stays before clearing itself. */
  durationMs: number;
};

export const TOAST_MS = 5_000;
/** Brand saves confirm more briefly: the list behind the toast already shows the change. */
export const BRAND_TOAST_MS = 3_000;

/**
 * The page sets this cookie to a toast's id once it has shown it; the server
 * then stops handing that toast out and clears both cookies.
 */
export const TOAST_SEEN_COOKIE = "namecard_toast_seen";

/** A toast raised in the browser itself, for what happens without a page load (a file downloaded). */
const CLIENT_TOAST_EVENT = "namecard:toast";

export function showToast(text: string, tone: Toast["tone"] = "success") {
  // Not crypto.randomUUID: browsers offer it only on https and localhost.
  const toast: Toast = { id: `client-${Date.now()}-${Math.random()}`, tone, text, durationMs: TOAST_MS };
  window.dispatchEvent(new CustomEvent<Toast>(CLIENT_TOAST_EVENT, { detail: toast }));
}

/** Calls `show` with every toast raised in the browser until the returned function is called. */
export function onClientToast(show: (toast: Toast) => void): () => void {
  const listener = (event: Event) => show((event as CustomEvent<Toast>).detail);
  window.addEventListener(CLIENT_TOAST_EVENT, listener);
  return () => window.removeEventListener(CLIENT_TOAST_EVENT, listener);
}
