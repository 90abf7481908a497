import { Transform } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import type { Request as ExpressRequest, Response as ExpressResponse, NextFunction } from "express";
import {
  createRequestHandler as createRouterHandler,
  type RouterContextProvider,
  type ServerBuild,
} from "react-router";

/**
 * The React Router handler for Express, as `@react-router/express` has it,
 * with two changes: every request body is limited before it is read (a body
 * over the route's limit is answered 413 and never buffered), and response
 * headers replace the defaults set earlier (so a page's own Content-Security-
 * Policy replaces the strict one every other response carries).
 */
export function createRequestHandler(options: {
  build: () => Promise<ServerBuild>;
  mode: string;
  bodyLimit: (path: string) => number;
  /** Whether the request carries a session: its answers are then private unless they say otherwise. */
  signedIn: (req: ExpressRequest) => boolean;
  /** The router context the app's loaders and actions receive. */
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => RouterContextProvider;
  /** Answers in its own way when it returns true (server/page-cache.ts keeps pages for reuse). */
  keepAnswer?: (req: ExpressRequest, res: ExpressResponse, response: Response) => Promise<boolean>;
}) {
  const handleRequest = createRouterHandler(options.build, options.mode);
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    const controller = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    let refused = false;
    const refuse = () => {
      if (refused) return;
      refused = true;
      controller.abort();
      sendTooLarge(req, res);
    };
    try {
      const limit = options.bodyLimit(req.path);
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const declared = Number(req.headers["content-length"]);
      if (hasBody && Number.isFinite(declared) && declared > limit) return refuse();
      const request = toFetchRequest(req, controller.signal, hasBody ? limitedBody(req, limit, refuse) : undefined);
      const response = await handleRequest(request, options.getLoadContext(req, res));
      if (refused || res.headersSent || res.destroyed) {
        await response.body?.cancel().catch(() => {});
        return;
      }
      if (await options.keepAnswer?.(req, res, response)) return;
      await sendResponse(res, response, options.signedIn(req));
    } catch (error) {
      if (refused) return;
      next(error);
    }
  };
}

/** The body as the app reads it, cut off (and refused) past `limit` bytes. */
function limitedBody(req: ExpressRequest, limit: number, refuse: () => void) {
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > limit) {
        refuse();
        callback(new Error("Request body too large"));
        return;
      }
      callback(null, chunk);
    },
  });
  req.pipe(counter);
  return createReadableStreamFromReadable(counter);
}

function sendTooLarge(req: ExpressRequest, res: ExpressResponse) {
  // Stop reading: what has not arrived yet is never taken in.
  req.unpipe();
  req.pause();
  if (!res.headersSent) {
    res
      .status(413)
      .set({ "Content-Type": "text/plain; charset=utf-8", Connection: "close", "Cache-Control": "no-store" })
      .end("The request is too large. Shorten the text or choose a smaller file, then try again.");
  }
  res.on("finish", () => lingerThenClose(req));
}

/** How long, and how much, a refused body is still read and thrown away after the answer. */
const LINGER_MS = 3_000;
const LINGER_BYTES = 16 * 1024 * 1024;

/**
 * Closing a socket with unread data makes the kernel reset the connection, and
 * a client still sending then sees the reset instead of the 413. So, as nginx
 * does, read and discard for a moment (bounded in time and bytes, never kept)
 * to let the client read the answer and stop; then close.
 */
function lingerThenClose(req: ExpressRequest) {
  const socket = req.socket;
  let discarded = 0;
  const close = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(close, LINGER_MS);
  req.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGER_BYTES) close();
  });
  req.once("end", close);
  req.once("close", () => clearTimeout(timer));
  req.resume();
}

function toFetchRequest(req: ExpressRequest, signal: AbortSignal, body: ReadableStream | undefined) {
  const [, hostPort] = req.get("host")?.split(":") ?? [];
  const port = Number.parseInt(hostPort ?? "", 10);
  const hostname = req.hostname.split(/[\\/?#@]/)[0] || "localhost";
  const url = new URL(`${req.protocol}://${hostname}${Number.isSafeInteger(port) ? `:${port}` : ""}${req.originalUrl}`);
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
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("set-cookie", cookies);
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
