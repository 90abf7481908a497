import { type MiddlewareFunction, createContext } from "react-router";
import { type Viewer, requireAdmin, requireViewer } from "~/.server/authz";

/** The signed-in viewer, set for every route under the signed-in layout. */
export const viewerContext = createContext<Viewer>();

export const requireViewerMiddleware: MiddlewareFunction<Response> = async ({ request, context }) => {
  context.set(viewerContext, await requireViewer(request));
};

export const requireAdminMiddleware: MiddlewareFunction<Response> = async ({ request, context }) => {
  context.set(viewerContext, await requireAdmin(request));
};
