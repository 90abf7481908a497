import { randomUUID } from "node:crypto";
import {
  createContext,
  createCookie,
  type MiddlewareFunction,
  type RouterContextProvider,
  redirect,
} from "react-router";
import { TOAST_MS, TOAST_SEEN_COOKIE, type Toast } from "~/lib/toast";
import { env } from "../platform/env";

/**
 * The one way to tell someone how a write went: the action redirects and
 * leaves a toast in a short-lived signed cookie; the root middleware reads it
 * on the next request and the root loader hands it to the page. Nothing about
 * the write travels in the URL.
 *
 * When the cookie is cleared: a full page load that shows the toast clears it
 * at once (it will be rendered, with or without JavaScript). A data request of
 * the running app does not: the app may discard its response (a revalidation
 * overtaken by the redirect's own navigation), and a clearing header on a late
 * response would wipe a newer toast. There the page reports the toast as seen
 * (TOAST_SEEN_COOKIE), after which it is handed out no more, and the cookie
 * runs out by itself.
 */
const toastCookie = createCookie("namecard_toast", {
  path: "/",
  httpOnly: true,
  sameSite: "lax",
  secure: env.PUBLIC_URL.startsWith("https://"),
  secrets: [env.AUTH_SECRET],
  // Long enough for the redirect to be followed; a toast is never shown late.
  maxAge: 60,
});

export type ToastInput = { text: string; tone?: Toast["tone"]; durationMs?: number };

function isToast(value: unknown): value is Toast {
  const toast = value as Partial<Toast> | null;
  return (
    !!toast &&
    typeof toast.id === "string" &&
    typeof toast.text === "string" &&
    (toast.tone === "success" || toast.tone === "error") &&
    typeof toast.durationMs === "number"
  );
}

/** The `Set-Cookie` header that carries a toast to the next page. */
async function toastCookieHeader(input: ToastInput): Promise<string> {
  const toast: Toast = {
    id: randomUUID(),
    tone: input.tone ?? "success",
    text: input.text,
    durationMs: input.durationMs ?? TOAST_MS,
  };
  return toastCookie.serialize(toast);
}

/** A redirect that shows `toast` on the page it lands on. */
export async function redirectWithToast(url: string, toast: ToastInput, init: ResponseInit = {}) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await toastCookieHeader(toast));
  return redirect(url, { ...init, headers });
}

/** The toast a request carries, if its cookie is present and correctly signed. */
export async function readToast(cookieHeader: string | null): Promise<Toast | null> {
  const value: unknown = await toastCookie.parse(cookieHeader);
  return isToast(value) ? value : null;
}

type PendingToast = { toast: Toast | null; taken: boolean };
const toastContext = createContext<PendingToast>({ toast: null, taken: false });

function seenToastId(cookieHeader: string | null): string | null {
  const match = new RegExp(`(?:^|;\\s*)${TOAST_SEEN_COOKIE}=([^;]*)`).exec(cookieHeader ?? "");
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

/** A full page load, which renders what the loader hands it (fetch() requests say `empty`). */
function isDocumentRequest(request: Request) {
  return request.headers.get("sec-fetch-dest") !== "empty";
}

/** Root middleware: reads the toast, and clears its cookie once a full page load has shown it. */
export const toastMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const cookieHeader = request.headers.get("cookie");
  const stored = await readToast(cookieHeader);
  const seen = stored !== null && seenToastId(cookieHeader) === stored.id;
  const pending: PendingToast = { toast: seen ? null : stored, taken: false };
  context.set(toastContext, pending);
  const response = await next();
  const replaced = response.headers.getSetCookie().some((cookie) => cookie.startsWith(`${toastCookie.name}=`));
  if (!replaced && pending.taken && isDocumentRequest(request)) {
    try {
      response.headers.append("Set-Cookie", await toastCookie.serialize("", { maxAge: 0 }));
    } catch {
      // A response with immutable headers: the short max-age clears the toast anyway.
    }
  }
  return response;
};

/** For the root loader: the toast to show on this page, handed out once. */
export function takeToast(context: Readonly<RouterContextProvider>): Toast | null {
  const pending = context.get(toastContext);
  if (!pending.toast) return null;
  pending.taken = true;
  return pending.toast;
}
