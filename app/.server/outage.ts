import { createContext, type RouterContextProvider } from "react-router";
import { isDatabaseUnavailable } from "./db/availability";

/**
 * A request that failed because the database is unavailable is answered with
 * 503 and a calm page, never with "not found" or a defect's 500. React Router
 * hands every error of a request to `handleError` (app/entry.server.tsx) with
 * the request's context: the mark is set there and read where the answer is
 * made (the document, a data request, or a resource route in server/app.ts).
 */
const databaseUnavailableContext = createContext<boolean>(false);

/** Seconds a client is asked to wait before trying again. */
export const RETRY_AFTER_SECONDS = 15;

/** Marks the request when its error means an outage; says whether it did. */
export function noteRequestError(error: unknown, context: RouterContextProvider | undefined): boolean {
  if (!isDatabaseUnavailable(error)) return false;
  context?.set(databaseUnavailableContext, true);
  return true;
}

export function failedForOutage(context: RouterContextProvider | undefined): boolean {
  return context?.get(databaseUnavailableContext) ?? false;
}
