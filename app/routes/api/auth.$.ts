import { getAuth } from "~/.server/auth";
import { isDatabaseUnavailable } from "~/.server/db/availability";
import type { BodyHandle } from "~/.server/form-data";
import { noteOutage, outageNoted, outageStatus, RETRY_AFTER_SECONDS } from "~/.server/outage";
import type { Route } from "./+types/auth.$";

/** better-auth reads JSON and url-encoded bodies; the server refuses others before it (server/routes.ts). */
export const handle: BodyHandle = { bodyTypes: ["application/json", "application/x-www-form-urlencoded"] };

/**
 * better-auth's answer, except that one it made 500 because the database was
 * unavailable is the outage's 503 (or 507), as every other answer is then.
 */
async function answer(request: Request): Promise<Response> {
  let response: Response;
  try {
    response = await getAuth().handler(request);
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    noteOutage();
    return unavailable();
  }
  if (response.status < 500 || !outageNoted()) return response;
  await response.body?.cancel();
  return unavailable();
}

function unavailable() {
  return Response.json(
    { code: "SERVICE_UNAVAILABLE", message: "Namecard is temporarily unavailable. Please try again in a moment." },
    { status: outageStatus(), headers: { "Retry-After": String(RETRY_AFTER_SECONDS), "Cache-Control": "no-store" } },
  );
}

/** better-auth's own HTTP API (verification links, reset links, JSON calls). */
export function loader({ request }: Route.LoaderArgs) {
  return answer(request);
}

export function action({ request }: Route.ActionArgs) {
  return answer(request);
}
