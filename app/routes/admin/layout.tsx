import { Outlet } from "react-router";
import { requireAdminMiddleware } from "~/middleware/viewer.server";
import type { Route } from "./+types/layout";

/** Every /admin page: non-admins go to /directory, checked on the server. */
export const middleware: Route.MiddlewareFunction[] = [requireAdminMiddleware];

export default function AdminLayout() {
  return <Outlet />;
}
