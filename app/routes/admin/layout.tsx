import { Outlet } from "react-router";
import { requireAdministrationMiddleware } from "~/middleware/viewer.server";
import type { Route } from "./+types/layout";

/** Every /admin page: non-admins go to /directory, checked on the server. */
export const middleware: Route.MiddlewareFunction[] = [requireAdministrationMiddleware];

export default function AdminLayout() {
  return <Outlet />;
}
