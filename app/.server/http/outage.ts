import { createContext, type RouterContextProvider } from "react-router";
import { isDatabaseUnavailable } from "../platform/db/availability";
import { currentRequestScope, inRequestScope } from "../platform/db/request-scope";
import { diskSpaceLow } from "../platform/disk-space";

/**
 * A request that failed because the database is unavailable gets a response with
 * 503 and a calm page, never with "not found" or a defect's 500. React Router
 * hands every error of a request to `handleError` (app/entry.server.tsx) with
 * the request's context: the mark is set there and read where the response is
 * made (the document, a data request, or a resource route in server/app.ts).
 */
const databaseUnavailableContext = createContext<boolean>(false);

/** Seconds a client is asked to wait before trying again. */
export const RETRY_AFTER_SECONDS = 15;

/**
 * Runs `respond` (a request's whole handling) so that an outage met inside a
 * library is noted for it; a read (`budgeted`) also gets the time budget of
 * app/.server/platform/db/request-scope.ts.
 */
export function watchForOutage<T>(respond: () => T, budgeted: boolean): T {
  return inRequestScope(respond, budgeted ? performance.now() : null);
}

/** Ends the request's budget: its response is sent, and what it set going is not held to it. */
export { endBudget as responseSent } from "../platform/db/request-scope";

/** Notes that the request being answered met an unavailable database (app/.server/http/auth-logger.ts does, for better-auth). */
export function noteOutage() {
  const request = currentRequestScope();
  if (request) request.outageMet = true;
}

export function outageNoted(): boolean {
  return currentRequestScope()?.outageMet ?? false;
}

/** Marks the request when its error means an outage; says whether it did. */
export function noteRequestError(error: unknown, context: RouterContextProvider | undefined): boolean {
  if (!isDatabaseUnavailable(error) && !outageNoted()) return false;
  context?.set(databaseUnavailableContext, true);
  return true;
}

export function failedForOutage(context: RouterContextProvider | undefined): boolean {
  return context?.get(databaseUnavailableContext) ?? false;
}

/**
 * The status of a response the database could not give: 507 while the disk is
 * too full to take changes (the embedded database is read-only then), else 503.
 */
export function outageStatus(): 503 | 507 {
  return diskSpaceLow() ? 507 : 503;
}

/**
 * better-auth's response, except that one it could not give because the database
 * was unavailable is the outage's 503 (or 507), as every other response is then:
 * it throws what is not its own error (`onAPIError.throw`), and responds to a
 * session lookup that failed with its own 500, whose cause only its log sees.
 */
export async function authResponse(respond: () => Promise<Response>): Promise<Response> {
  let response: Response;
  try {
    response = await respond();
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    noteOutage();
    return authUnavailable();
  }
  if (response.status < 500 || !outageNoted()) return response;
  await response.body?.cancel();
  return authUnavailable();
}

function authUnavailable() {
  return Response.json(
    { code: "SERVICE_UNAVAILABLE", message: "Namecard is temporarily unavailable. Please try again in a moment." },
    { status: outageStatus(), headers: { "Retry-After": String(RETRY_AFTER_SECONDS), "Cache-Control": "no-store" } },
  );
}
