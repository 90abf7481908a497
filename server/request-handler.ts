import type { Request as ExpressRequest, Response as ExpressResponse, NextFunction } from "express";
import {
  createRequestHandler as createRouterHandler,
  type RouterContextProvider,
  type ServerBuild,
} from "react-router";
import { BODY_TOO_LARGE, bodyFault, mediaTypeFault } from "~/.server/http/form-data";
import { env } from "~/.server/platform/env";
import type { ActionFacts, RouteFacts } from "./routes";

/**
 * The React Router handler for Express, as `@react-router/express` has it,
 * with these changes:
 *
 * - Requests are checked against what their route declares (server/routes.ts)
 *   before React Router runs: a method the route does not take gets 405, a
 *   body over the route's limit 413 (never buffered), one of a media type it
 *   does not read 415, one that cannot be read 400, a form from another site
 *   403, a request whose Host makes no URL 400. Each is a short plain
 *   message, and the body React Router gets is one that its action can read,
 *   read whole first.
 * - Response headers replace the defaults set earlier (so a page's own
 *   Content-Security-Policy replaces the strict one every other response
 *   carries); cookies set earlier are kept. Content-Type is sent as the
 *   response says it, without the charset Express would add.
 * - The URL's port comes from the header its host came from, never the
 *   Host's port beside a proxy's host.
 * - A signed-in visitor's response is private unless it says otherwise, and
 *   `cacheResponse` may respond instead.
 *
 * Everything else is held to the library's own handler by
 * tests/unit/request-handler-contract.test.ts.
 */
export function createRequestHandler(options: {
  /** The build, or in development a function that loads it afresh (it changes as files are edited). */
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: string;
  /** What the request's route declares (server/routes.ts). */
  route: (req: ExpressRequest, res: ExpressResponse) => RouteFacts;
  /** Whether the request carries a session: its responses are then private unless they say otherwise. */
  signedIn: (req: ExpressRequest) => boolean;
  /** The router context the app's loaders and actions receive. */
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => RouterContextProvider;
  /** Responds in its own way when it returns true (server/page-cache.ts caches pages for reuse). */
  cacheResponse?: (req: ExpressRequest, res: ExpressResponse, response: Response) => Promise<boolean>;
}) {
  const handleRequest = createRouterHandler(options.build, options.mode);
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    const controller = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    try {
      const route = options.route(req, res);
      const refusal = requestFault(req, route);
      if (refusal) return refuse(req, res, refusal);
      let body: Body | undefined;
      if (req.method === "POST" && route.action) {
        const accepted = await acceptBody(req, res, route.action);
        if (!accepted) return;
        body = accepted;
      }
      const request = toFetchRequest(req, controller.signal, body);
      const response = await handleRequest(request, options.getLoadContext(req, res));
      if (res.headersSent || res.destroyed) {
        await response.body?.cancel().catch(() => {});
        return;
      }
      if (await options.cacheResponse?.(req, res, response)) return;
      await sendResponse(res, response, options.signedIn(req));
    } catch (error) {
      next(error);
    }
  };
}

/** A response given before React Router: a status, a short message, and any headers it needs. */
export type Refusal = {
  status: number;
  message: string;
  headers?: Record<string, string>;
  /** The message's media type: plain text unless an API responds in its own (SCIM's JSON errors). */
  type?: string;
};

const TOO_LARGE: Refusal = { status: 413, message: BODY_TOO_LARGE };

/** What is wrong with a request before its body is looked at, or null. */
function requestFault(req: ExpressRequest, route: RouteFacts): Refusal | null {
  // HTTP/1.1 requires a Host (Node responds 400 without one); the app's URLs are made from it, so 1.0 must send it too.
  if (!req.headers.host) return { status: 400, message: "The request has no Host header." };
  // The request's URL is made from the Host: one that makes no URL ("a b", "x:y:z") is the client's mistake.
  if (!URL.canParse(`http://${req.headers.host}/`))
    return { status: 400, message: "The request's Host header is not valid." };
  if (req.method === "GET" || req.method === "HEAD") {
    return hasBody(req) ? { status: 400, message: `A ${req.method} request cannot carry a body.` } : null;
  }
  if (req.method === "POST" && route.action) {
    return !route.action.crossSite && sentFromAnotherSite(req) ? FOREIGN_FORM : null;
  }
  return {
    status: 405,
    message: `This address does not take ${req.method} requests.`,
    headers: { Allow: route.action ? "GET, HEAD, POST" : "GET, HEAD" },
  };
}

const FOREIGN_FORM: Refusal = {
  status: 403,
  message: "This form was sent from another site. Open the page on this site and send it again.",
};

/**
 * Whether a browser sent this request from a page of another site: one check
 * for every route that changes something, pages and resource routes alike (a
 * page elsewhere must not sign a member out or set their theme). Browsers send
 * `Origin` with every POST; an older one may send only `Sec-Fetch-Site`. A
 * request with neither comes from no browser page (a script, a test, curl),
 * which a session cookie could not have been taken from.
 */
function sentFromAnotherSite(req: ExpressRequest): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) {
    const site = req.headers["sec-fetch-site"];
    return site === "cross-site" || site === "same-site";
  }
  // "null" (a sandboxed frame, a redirect from elsewhere) and anything that is no URL are foreign too.
  if (!URL.canParse(origin)) return true;
  const from = new URL(origin).origin;
  return from !== new URL(env.PUBLIC_URL).origin && from !== new URL(`${req.protocol}://${req.headers.host}`).origin;
}

export function hasBody(req: ExpressRequest): boolean {
  return req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
}

/** The body's size as the request declares it; null when it is sent in chunks of unknown total. */
export function declaredLength(req: ExpressRequest): number | null {
  if (req.headers["transfer-encoding"] !== undefined) return null;
  return Number(req.headers["content-length"] ?? 0);
}

/** As Node recognises it; an HTTP/1.0 client's expectation is ignored (RFC 9110, 10.1.1). */
const CONTINUE = /(?:^|\W)100-continue(?:$|\W)/i;

export function expectsContinue(req: ExpressRequest): boolean {
  return req.httpVersion === "1.1" && CONTINUE.test(req.headers.expect ?? "");
}

/**
 * An Expect header other than `100-continue` cannot be met: 417 with a
 * message (server.js passes these requests to the app rather than letting Node
 * respond with a bare 417). `100-continue` itself gets its response when the body is
 * about to be read (`acceptBody`).
 */
export function refuseUnknownExpectations(req: ExpressRequest, res: ExpressResponse, next: NextFunction) {
  if (req.headers.expect === undefined || req.httpVersion !== "1.1" || expectsContinue(req)) return next();
  refuse(req, res, { status: 417, message: "This server can meet no expectation but 100-continue." });
}

/**
 * Reads a POST body the action can use, or refuses it and returns null: a
 * declared size over the limit and a media type the action does not read are
 * refused before reading (and before `100 Continue`, which server.js leaves to
 * this step); a body of unknown size is read up to the limit first, so that an
 * oversized one is always a 413.
 */
async function acceptBody(req: ExpressRequest, res: ExpressResponse, action: ActionFacts): Promise<Body | null> {
  const declared = declaredLength(req);
  if (declared !== null && declared > action.limit) return refuse(req, res, TOO_LARGE);
  const contentType = req.headers["content-type"];
  const wrongType = mediaTypeFault(contentType, action.types);
  if (wrongType && (declared !== null || expectsContinue(req))) return refuse(req, res, wrongType);
  if (expectsContinue(req)) res.writeContinue();
  const body = await readBody(req, action.limit);
  if (body === "gone") return null;
  if (body === "too large") return refuse(req, res, TOO_LARGE);
  const fault = wrongType ?? (await bodyFault(contentType, body));
  return fault ? refuse(req, res, fault) : body;
}

/** A request body read whole. */
type Body = Uint8Array<ArrayBuffer>;

function joined(chunks: Buffer[], size: number): Body {
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return body;
}

/** The whole body, or "too large" as soon as it passes `limit` (reading then stops), or "gone" if the client left. */
export function readBody(req: ExpressRequest, limit: number): Promise<Body | "too large" | "gone"> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: Body | "too large" | "gone") => {
      if (settled) return;
      settled = true;
      req.off("data", take);
      req.off("end", end);
      req.off("close", gone);
      req.off("error", gone);
      resolve(result);
    };
    const take = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        req.pause();
        settle("too large");
      } else {
        chunks.push(chunk);
      }
    };
    const end = () => settle(joined(chunks, size));
    const gone = () => settle("gone");
    req.on("data", take);
    req.once("end", end);
    req.once("close", gone);
    req.once("error", gone);
  });
}

/**
 * Responds to a refused request with its status and message, then closes the
 * connection after a lingering read (`lingerThenEnd`). Returns null, for the
 * callers that return what they would have read.
 */
export function refuse(req: ExpressRequest, res: ExpressResponse, refusal: Refusal): null {
  if (res.headersSent) {
    res.destroy();
    return null;
  }
  const body = Buffer.from(refusal.message, "utf8");
  res.statusCode = refusal.status;
  res.setHeader("Content-Type", refusal.type ?? "text/plain; charset=utf-8");
  res.setHeader("Content-Length", body.length);
  res.setHeader("Cache-Control", "no-store");
  // The rest of a refused body is never read as a next request.
  if (!req.complete) res.setHeader("Connection", "close");
  for (const [name, value] of Object.entries(refusal.headers ?? {})) res.setHeader(name, value);
  res.write(body);
  lingerThenEnd(req, res);
  return null;
}

/** How long, and how much, a refused body is still read and thrown away after the response (as nginx's lingering close). */
const LINGER_MS = 30_000;
const LINGER_IDLE_MS = 5_000;
const LINGER_BYTES = 64 * 1024 * 1024;

/** The refusals still reading, ended at once when the server stops. */
const lingering = new Set<() => void>();

/**
 * Node closes the socket as soon as a response with `Connection: close` ends.
 * Closing a socket with unread data makes the kernel reset the connection,
 * and a reset makes the client's kernel drop what it has not read yet: a
 * client still sending its body saw EPIPE or ECONNRESET instead of the 413.
 * So a refused response is written whole (its length declared) and ended only
 * once the client has stopped sending: its body ended, it went quiet for
 * LINGER_IDLE_MS, or it sent LINGER_BYTES or for LINGER_MS more. What is read
 * meanwhile is counted and dropped, never kept.
 */
function lingerThenEnd(req: ExpressRequest, res: ExpressResponse) {
  if (req.complete) {
    res.end();
    return;
  }
  let discarded = 0;
  let idle: NodeJS.Timeout | undefined;
  const finish = () => {
    if (!lingering.delete(finish)) return;
    clearTimeout(idle);
    clearTimeout(cap);
    req.off("data", discard);
    if (!res.writableEnded && !res.destroyed) res.end();
  };
  const quiet = () => {
    clearTimeout(idle);
    idle = setTimeout(finish, LINGER_IDLE_MS);
  };
  const discard = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGER_BYTES) finish();
    else quiet();
  };
  const cap = setTimeout(finish, LINGER_MS);
  lingering.add(finish);
  quiet();
  req.on("data", discard);
  req.once("end", finish);
  req.once("close", finish);
  // A client that stops sending may reset the connection: that is the end of it, not an error.
  req.on("error", finish);
  req.resume();
}

/** Ends every lingering refusal now: the first step of a graceful stop. */
export function endLingering() {
  for (const finish of [...lingering]) finish();
}

function toFetchRequest(req: ExpressRequest, signal: AbortSignal, body: Body | undefined) {
  // The port comes from the header the hostname came from: a trusted proxy's X-Forwarded-Host, else Host.
  const [, hostPort] = req.host?.split(":") ?? [];
  const port = Number.parseInt(hostPort ?? "", 10);
  const hostname = (req.hostname ?? "").split(/[\\/?#@]/)[0] || "localhost";
  const url = new URL(`${req.protocol}://${hostname}${port ? `:${port}` : ""}${req.originalUrl}`);
  const headers = new Headers();
  for (const [key, values] of Object.entries(req.headers)) {
    if (!values) continue;
    if (Array.isArray(values)) for (const value of values) headers.append(key, value);
    else headers.set(key, values);
  }
  return new Request(url.href, {
    method: req.method,
    headers,
    signal,
    ...(body ? { body, duplex: "half" } : {}),
  } as RequestInit);
}

async function sendResponse(res: ExpressResponse, response: Response, signedIn: boolean) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  if (signedIn && !response.headers.has("cache-control")) res.setHeader("Cache-Control", "private, no-store");
  for (const [key, value] of response.headers.entries()) {
    if (key === "set-cookie") continue;
    res.setHeader(key, value);
  }
  // A cookie is never a default: those set earlier are sent too.
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.append("set-cookie", cookies);
  const eventStream = /text\/event-stream/i.test(response.headers.get("content-type") ?? "");
  if (eventStream) res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  // Anything but an event stream is compressed as one whole: flushing the
  // compressor after every streamed chunk made the card page 40% larger than
  // gzip of the same HTML (docs/decisions/013-performance.md).
  await writeBody(response.body, res, eventStream);
}

/**
 * Writes a response body, waiting whenever the connection asks to. One
 * `drain` and one `close` listener serve the whole response: the compression
 * middleware hands listeners added to the response on to its compressor but
 * never takes them off, so a listener per wait piled up on large pages.
 */
async function writeBody(body: ReadableStream<Uint8Array>, res: ExpressResponse, flushEachChunk: boolean) {
  const flushable = res as ExpressResponse & { flush?: () => void };
  let wake: (() => void) | undefined;
  const resume = () => {
    const waiting = wake;
    wake = undefined;
    waiting?.();
  };
  const reader = body.getReader();
  // Whoever leaves stops the page's rendering, or their event stream, at once.
  const leave = () => {
    resume();
    void reader.cancel().catch(() => {});
  };
  res.on("drain", resume);
  res.on("close", leave);
  let finished = false;
  try {
    while (true) {
      const { done, value } = await reader.read();
      finished = done;
      if (done) break;
      if (res.destroyed) return;
      const ready = res.write(value);
      if (flushEachChunk) flushable.flush?.();
      if (!ready && !res.destroyed) await new Promise<void>((resolve) => (wake = resolve));
    }
    if (!res.destroyed) res.end();
  } catch (error) {
    // A visitor who left is no failure; anything else goes to the error handler.
    if (!res.destroyed) throw error;
  } finally {
    res.off("drain", resume);
    res.off("close", leave);
    if (!finished) void reader.cancel().catch(() => {});
  }
}
