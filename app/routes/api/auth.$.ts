import { getAuth } from "~/.server/http/auth";
import type { BodyHandle } from "~/.server/http/form-data";
import { authResponse } from "~/.server/http/outage";
import type { Route } from "./+types/auth.$";

/** better-auth reads JSON and url-encoded bodies; the server refuses others before it (server/routes.ts). */
export const handle: BodyHandle = { bodyTypes: ["application/json", "application/x-www-form-urlencoded"] };

/** better-auth's own HTTP API (verification links, reset links, JSON calls); an outage gets the same response as everywhere. */
export function loader({ request }: Route.LoaderArgs) {
  return authResponse(() => getAuth().handler(request));
}

export function action({ request }: Route.ActionArgs) {
  return authResponse(() => getAuth().handler(request));
}
