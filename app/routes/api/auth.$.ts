import { getAuth } from "~/.server/auth";
import type { Route } from "./+types/auth.$";

/** better-auth's own HTTP API (verification links, reset links, JSON calls). */
export function loader({ request }: Route.LoaderArgs) {
  return getAuth().handler(request);
}

export function action({ request }: Route.ActionArgs) {
  return getAuth().handler(request);
}
