import { createContext, type MiddlewareFunction } from "react-router";
import { requireAdministration, requireViewer, sessionCookieUpdates, type Viewer } from "~/.server/http/authz";

/** The signed-in viewer, set for every route under the signed-in layout. */
export const viewerContext = createContext<Viewer>();

/**
 * Puts the viewer into the router context, and passes on a refreshed session
 * cookie so that an active person stays signed in (sessions slide forward).
 */
export const requireViewerMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  context.set(viewerContext, await requireViewer(request));
  const response = await next();
  try {
    for (const cookie of sessionCookieUpdates(request)) response.headers.append("set-cookie", cookie);
    // Signed-in pages carry personal data: never stored by a shared cache or the browser's history cache.
    if (!/immutable|public/.test(response.headers.get("cache-control") ?? "")) {
      response.headers.set("Cache-Control", "private, no-store");
    }
  } catch {
    // A response with immutable headers keeps its own; the session still works.
  }
  return response;
};

/** Administration pages: for administrators and brand administrators; each page checks what it shows. */
export const requireAdministrationMiddleware: MiddlewareFunction<Response> = async ({ request, context }) => {
  context.set(viewerContext, await requireAdministration(request));
};
