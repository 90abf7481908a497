import { data } from "react-router";
import type { ActionFailure } from "~/lib/action-result";
import { isDatabaseUnavailable } from "../platform/db/availability";
import { databaseErrorLine, isFailedQuery } from "../platform/db/errors";
import { diskSpaceLow } from "../platform/disk-space";
import { ConflictError, ForbiddenError, NotFoundError, StaleEditError, ValidationError } from "../platform/errors";

/** What a form says when its write could not reach the database; what was typed stays on the form. */
const TEMPORARILY_UNAVAILABLE =
  "Namecard is temporarily unavailable, so nothing was saved. Please try again in a moment.";
/** …and when the server's disk is too full to take it. */
const DISK_FULL =
  "The server's disk is full, so nothing was saved. Please tell your administrator; everything else can still be read.";

/**
 * Where domain outcomes become HTTP: routes call a domain function and hand
 * anything it throws to `failureFrom`, which picks the status and the
 * message. Domain code never imports this module.
 */
export function failure(status: number, body: ActionFailure) {
  return data<ActionFailure>(body, { status });
}

type FailureTexts = {
  /** What the form keeps showing. */
  values?: Record<string, string>;
  /** The message when the record is gone (or was never the actor's). */
  notFound?: string;
  /** The message when something unexpected failed; the cause is logged. Without it, the error goes on to the error boundary. */
  unexpected?: string;
};

export function failureFrom(error: unknown, texts: FailureTexts = {}) {
  const { values } = texts;
  if (error instanceof ValidationError || error instanceof ConflictError) {
    return failure(400, { fieldErrors: error.fieldErrors, values });
  }
  if (error instanceof StaleEditError) return failure(409, { formError: error.message, values });
  if (error instanceof NotFoundError) {
    return failure(404, { formError: texts.notFound ?? "It no longer exists.", values });
  }
  if (error instanceof ForbiddenError) return failure(403, { formError: error.message });
  if (isDatabaseUnavailable(error)) {
    if (diskSpaceLow()) return failure(507, { formError: DISK_FULL, values });
    console.warn(`[action] the database is unavailable: ${databaseErrorLine(error)}`);
    return failure(503, { formError: TEMPORARILY_UNAVAILABLE, values });
  }
  if (texts.unexpected && !(error instanceof Response)) {
    console.error("[action] failed:", isFailedQuery(error) ? databaseErrorLine(error) : error);
    return failure(500, { formError: texts.unexpected, values });
  }
  throw error;
}

/**
 * "Not found" has one form everywhere: a thrown 404. A page's error boundary
 * words it for that page; a file route sends it as it is.
 */
export function notFound(text = "Not found"): never {
  throw new Response(text, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/**
 * Reads a page's query with `parse` (which may be async); a ValidationError (a
 * malformed filter in the URL) becomes a 400 whose text says what is wrong,
 * shown by the error boundary.
 */
export function parseQuery<T>(parse: () => T): T {
  try {
    const result = parse();
    if (result instanceof Promise) return result.catch(badRequestFrom) as T;
    return result;
  } catch (error) {
    return badRequestFrom(error);
  }
}

function badRequestFrom(error: unknown): never {
  if (!(error instanceof ValidationError)) throw error;
  const message = Object.values(error.fieldErrors).flat()[0] ?? "This address is not valid.";
  throw data(message, { status: 400 });
}

/** A CSV file to download, never cached. */
export function csvResponse(body: string, fileName: string): Response {
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "no-store",
    },
  });
}
