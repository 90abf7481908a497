import { Writable } from "node:stream";
import { renderToPipeableStream, renderToStaticMarkup } from "react-dom/server";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { contentSecurityPolicy, formTargetsContext, newNonce } from "~/.server/http/csp";
import { failedForOutage, noteRequestError, outageStatus, RETRY_AFTER_SECONDS } from "~/.server/http/outage";
import { databaseErrorLine, isFailedQuery } from "~/.server/platform/db/errors";
import { diskSpaceLow } from "~/.server/platform/disk-space";
import { loggedUrl } from "~/.server/platform/log-redaction";
import { UnavailablePage } from "~/components/unavailable-page";
import { fontStylesheet } from "~/lib/fonts";
import { speaksVisitorLanguage } from "~/lib/i18n/negotiate";
import { NonceContext } from "~/lib/nonce";
import { DEFAULT_SETTINGS } from "~/lib/settings";

export const streamTimeout = 5_000;

/**
 * Renders a page with a Content-Security-Policy whose nonce is new for every
 * response: only scripts that carry it run (docs/decisions/010-hardening-the-edge.md).
 * A page whose data could not be read because the database is unavailable is
 * sent with 503 and a calm page of its own (docs/decisions/011-outages-and-health.md).
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const nonce = newNonce();
  responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(nonce, loadContext.get(formTargetsContext)));
  // Browsers keep a 410 Gone forever unless told otherwise, and a deactivated card can come back
  // (docs/decisions/019-deactivation-and-audit-log.md).
  if (responseStatusCode === 410 && !responseHeaders.has("Cache-Control"))
    responseHeaders.set("Cache-Control", "no-store");
  // A page in its visitor's language differs by what the browser asks for: shared caches keep one per language.
  if (speaksVisitorLanguage(new URL(request.url).pathname)) responseHeaders.append("Vary", "Accept-Language");
  if (failedForOutage(loadContext)) {
    responseHeaders.delete("Set-Cookie");
    return unavailableDocument(request, routerContext, responseHeaders, nonce);
  }
  // A form the outage refused (503, or 507 for a full disk) says when to try again, as every such response does.
  if (responseStatusCode === 503 || responseStatusCode === 507) {
    responseHeaders.set("Retry-After", String(RETRY_AFTER_SECONDS));
  }
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <NonceContext value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceContext>,
      {
        nonce,
        // No page streams parts of itself later (nothing suspends), so each is sent whole: one
        // buffer, compressed once and written to the socket once, instead of many small chunks
        // through three kinds of stream (docs/decisions/035-both-cores-and-many-instances.md).
        onAllReady() {
          shellRendered = true;
          const chunks: Buffer[] = [];
          const body = new Writable({
            write(chunk: Buffer, _encoding, callback) {
              chunks.push(chunk);
              callback();
            },
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              responseHeaders.set("Content-Type", "text/html");
              resolve(new Response(Buffer.concat(chunks), { headers: responseHeaders, status: responseStatusCode }));
              callback();
            },
          });
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors before the shell rejected above and are logged by React Router.
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}

/**
 * Unexpected errors are logged; what a client caused is not: an aborted
 * request, and a form posted from another site (React Router refuses it with
 * 400). A database outage is one line per request, not a stack trace each time.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (noteRequestError(error, context as RouterContextProvider | undefined)) {
    // A disk too full for changes is one line when it starts (app/.server/platform/disk-space.ts), not one per request.
    if (diskSpaceLow()) return;
    console.warn(
      `[db] unavailable: ${request.method} ${loggedUrl(new URL(request.url).pathname)} answered 503 (${databaseErrorLine(error)})`,
    );
    return;
  }
  if (request.signal.aborted) return;
  if (error instanceof Error && /does not match `origin` header/.test(error.message)) {
    console.warn(
      `[request] ${request.method} ${loggedUrl(new URL(request.url).pathname)}: refused a form from another origin`,
    );
    return;
  }
  const thrown = (error as { error?: unknown })?.error ?? error;
  // A failed query's error holds the values it carried (addresses, tokens): its cause and stack are enough.
  console.error(isFailedQuery(thrown) ? `${databaseErrorLine(thrown)}\n${stackFrames(thrown)}` : thrown);
};

/** A stack's frames only: a failed query's message, which the stack repeats first, spans lines holding its values. */
function stackFrames(error: Error): string {
  return (error.stack ?? "")
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .join("\n");
}

export function handleDataRequest(response: Response, { context }: { context: unknown }) {
  if ((response.status === 503 || response.status === 507) && !response.headers.has("Retry-After")) {
    const headers = new Headers(response.headers);
    headers.set("Retry-After", String(RETRY_AFTER_SECONDS));
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
  if (!failedForOutage(context as RouterContextProvider)) {
    if (response.status !== 410 || response.headers.has("Cache-Control")) return response;
    // As for the page: a gone card can come back, so no browser caches the response.
    const headers = new Headers(response.headers);
    headers.set("Cache-Control", "no-store");
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
  const headers = new Headers(response.headers);
  headers.set("Retry-After", String(RETRY_AFTER_SECONDS));
  return new Response(response.body, { status: outageStatus(), headers });
}

function unavailableDocument(request: Request, routerContext: EntryContext, headers: Headers, nonce: string) {
  const stylesheets = [fontStylesheet(DEFAULT_SETTINGS.fontFamily), ...(routerContext.manifest.routes.root?.css ?? [])];
  const html = renderToStaticMarkup(
    <UnavailablePage
      stylesheets={stylesheets}
      retryAfter={RETRY_AFTER_SECONDS}
      retryHref={new URL(request.url).pathname}
      nonce={nonce}
      cause={diskSpaceLow() ? "disk" : "database"}
    />,
  );
  headers.set("Content-Type", "text/html; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  headers.set("Retry-After", String(RETRY_AFTER_SECONDS));
  return new Response(`<!DOCTYPE html>${html}`, { status: outageStatus(), headers });
}
