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
