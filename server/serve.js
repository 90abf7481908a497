// One Namecard server process: static files, compression, request logs, the
// app, and a graceful shutdown that closes the database. See
// docs/decisions/003-custom-server.md. Started by server.js, alone or as one
// of several processes (server/processes.js).
import cluster from "node:cluster";
import fs from "node:fs";
import http from "node:http";
import v8 from "node:v8";
import compression from "compression";
import express from "express";

// After each full collection V8 lets the heap grow to a multiple of what
// survived it before collecting again: up to four times on a machine with a
// few gigabytes of memory, so a server under load held several times the
// memory it used, until a minute of idleness; heap snapshots over a soak
// showed no object that grew. One and a half times holds the heap far lower
// under the same load at the same throughput (bench/README.md, "Memory over a
// 10-minute soak", has the figures). Read at every collection, so it can be
// set here rather than on the command line.
v8.setFlagsFromString("--heap-growing-percent=50");

// Production unless told otherwise: React, React Router and Express all read
// NODE_ENV, and their development builds are several times slower.
process.env.NODE_ENV ||= "production";
const MODE = process.env.NODE_ENV;
const DEVELOPMENT = MODE === "development";
const BUILD_PATH = "../build/server/index.js";

let server;
try {
  server = DEVELOPMENT ? await developmentServer() : await import(BUILD_PATH);
} catch (error) {
  // A configuration fault is one line that says what to do, never a stack trace.
  if (error?.name === "EnvError" || error?.startupFault) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const app = express();
app.disable("x-powered-by");
let stopping = false;
// While stopping, each response closes its connection, so keep-alive clients reconnect elsewhere.
app.use((_req, res, next) => {
  if (stopping) res.setHeader("Connection", "close");
  next();
});
app.use(compression());
// One line per response. Its address is shown by the rule of every log line that prints one: no
// query value, no token of the auth API's paths (docs/decisions/039-no-secrets-in-logs.md).
app.use((req, res, next) => {
  const started = process.hrtime.bigint();
  res.on("finish", () => {
    if (req.path.startsWith("/assets/") && res.statusCode < 400) return;
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    console.info(`${req.method} ${server.loggedUrl(req.originalUrl)} ${res.statusCode} ${ms.toFixed(1)}ms`);
  });
  next();
});

// The client address, a well-formed URL and the security headers come first, static files included.
server.prepare(app);
if (DEVELOPMENT) {
  app.use(server.vite.middlewares);
} else {
  // Hashed build assets never change; other public files may.
  app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y" }));
  // The other public files are looked for by name, read at start (a file added later is served
  // after a restart): a page, a card or an image never waits for a look at the disk (a
  // file-system call on the thread pool, behind compression's work).
  const publicNames = new Set(fs.readdirSync("build/client").filter((name) => name !== "assets"));
  const publicFiles = express.static("build/client", { maxAge: "1h" });
  app.use((req, res, next) => {
    const [, first = ""] = req.path.split("/", 2);
    if (publicNames.has(first)) publicFiles(req, res, next);
    else next();
  });
}
server.handle(app);

// Request time limits (set by limitConnections below) are checked every second, not every 30.
const listener = http.createServer({ connectionsCheckingInterval: 1_000 }, app);
// Node would respond to `Expect: 100-continue` itself, before the app has seen the
// request, and a client then sends a body the app may refuse (its size, its
// route). The app sends `100 Continue` only when it is about to read the body
// (server/request-handler.ts) and responds to other expectations with 417 and a message.
listener.on("checkContinue", app);
listener.on("checkExpectation", app);
// Bounds on what one client may hold: connections at once, and the time to send a request.
server.limitConnections(listener, app);
listener.once("error", (error) => failToListen(error, server.config.port));
listener.listen(server.config.port, server.config.host, () => {
  const host = server.config.host;
  const where = !host || host === "0.0.0.0" || host === "::" ? "every interface" : `${host} only`;
  console.info(
    `Namecard is listening on ${server.config.publicUrl} (port ${server.config.port} on ${where}, ${MODE} mode)`,
  );
});

/** The port is taken or forbidden: one line, the database closed, exit 1. */
async function failToListen(error, port) {
  const reasons = {
    EADDRINUSE: `[server] PORT ${port} is already in use by another program: stop it, or set PORT to a free port.`,
    EACCES: `[server] PORT ${port} needs privileges this user does not have: use a port above 1023 (for example PORT=3000) behind a reverse proxy.`,
    EADDRNOTAVAIL: server.config.host
      ? `[server] HOST ${server.config.host} is not an address of this machine: set HOST to one of its addresses, or 127.0.0.1.`
      : `[server] PORT ${port} cannot be opened on this machine's addresses: check the network configuration.`,
  };
  console.error(reasons[error.code] ?? `[server] cannot listen on PORT ${port}: ${error.message}`);
  await server.shutdown().catch(() => {});
  process.exit(1);
}

/** How long requests in flight may take to finish after SIGTERM/SIGINT. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Graceful stop: no new connections, event streams ended, requests in flight
 * finish (up to SHUTDOWN_GRACE_MS), then the database closes. A second signal
 * stops at once.
 */
async function stop(signal) {
  if (stopping) {
    console.warn(`[server] ${signal} again: stopping now`);
    process.exit(1);
  }
  stopping = true;
  console.info(`[server] ${signal}: finishing requests in flight, then closing`);
  const closed = new Promise((resolve) => listener.close(resolve));
  server.endStreams?.();
  // A keep-alive connection whose response ends after this point becomes idle
  // later: close idle ones until none are left.
  listener.closeIdleConnections();
  const sweep = setInterval(() => listener.closeIdleConnections(), 200);
  const deadline = setTimeout(() => {
    console.warn(`[server] requests still running after ${SHUTDOWN_GRACE_MS / 1000} s: closing them`);
    listener.closeAllConnections();
  }, SHUTDOWN_GRACE_MS);
  await closed;
  clearInterval(sweep);
  clearTimeout(deadline);
  let code = 0;
  try {
    await server.shutdown();
  } catch (error) {
    console.error("[server] closing the database failed:", error);
    code = 1;
  }
  console.info("[server] stopped");
  process.exit(code);
}
if (cluster.isWorker) {
  // One of several processes (server/processes.js). A stop reaches it twice: from the
  // supervising process, which passes it on as SIGTERM, and from whoever signalled the whole
  // group (a service manager's SIGTERM to every process, Ctrl-C's SIGINT in a terminal). The
  // first starts a graceful stop; the rest are the same stop. To stop at once, the supervising
  // process sends SIGKILL. (If the supervising process dies, Node's cluster module ends this one.)
  process.on("SIGTERM", () => stopping || stop("SIGTERM"));
  process.on("SIGINT", () => {});
} else {
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

async function developmentServer() {
  const { createServer } = await import("vite");
  const vite = await createServer({ server: { middlewareMode: true } });
  const mod = await vite.ssrLoadModule("./server/app.ts");
  return { ...mod, vite };
}
