import { AsyncLocalStorage } from "node:async_hooks";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Express, NextFunction, Request, Response } from "express";
import { RouterContextProvider, type ServerBuild } from "react-router";
import { flushSaves } from "~/.server/analytics/card-saves";
import { adoptJournals } from "~/.server/analytics/view-journal";
import { startCountingViews, stopCountingViews } from "~/.server/analytics/views";
import { BACKUP_PATH, publishControl } from "~/.server/backup/control";
import { CLIENT_IP_HEADER } from "~/.server/http/auth";
import { checkHealth } from "~/.server/http/health";
import { startImportWorker, stopImportWorker } from "~/.server/imports/run";
import { sendDueReminders } from "~/.server/invitations/invitations";
import { startMailQueue } from "~/.server/invitations/mail-queue";
import { isDatabaseUnavailable } from "~/.server/platform/db/availability";
import { getDatabaseHandle } from "~/.server/platform/db/client";
import { connectDatabase } from "~/.server/platform/db/connect";
import { databaseErrorLine, isFailedQuery } from "~/.server/platform/db/errors";
import { refreshPlannerStatistics, startEmbeddedUpkeep } from "~/.server/platform/db/upkeep";
import { diskSpaceLow, watchDiskSpace } from "~/.server/platform/disk-space";
import { dataDirectoryInUse, env, forgedAddressWarning } from "~/.server/platform/env";
// A lead's mails are sent through the queue: their renderers register on import.
import "~/.server/leads/mails";
import {
  failedForOutage,
  outageNoted,
  outageStatus,
  RETRY_AFTER_SECONDS,
  responseSent,
  watchForOutage,
} from "~/.server/http/outage";
import { deleteExpiredLeads } from "~/.server/leads/retention";
import { loggedUrl } from "~/.server/platform/log-redaction";
import { endStreams as endEventStreams, startRealtime } from "~/.server/platform/realtime";
import { StartupError } from "~/.server/platform/startup-error";
import { backupEndpoint } from "./backup-endpoint";
import { MISDIRECTED_SAML_PATH, misdirectedSamlEndpoint } from "./misdirected-saml";
import { cacheResponse, servePages, startPageCache } from "./page-cache";
import { createRequestHandler, endLingering, refuse, refuseUnknownExpectations } from "./request-handler";
import { findRoutes, routeOf, routeTable } from "./routes";
import { SCIM_PATH, scimEndpoint } from "./scim-endpoint";
import { startWatchdog } from "./watchdog";

/**
 * The server half of Namecard that is built with the app: configuration,
 * database, the client-address rule, limits, headers, health, and the React
 * Router handler. `server.js` mounts it around static files and owns the process.
 */

if (env.ADMIN_EMAILS.length === 0) {
  console.warn(
    "[config] ADMIN_EMAILS is not set: nobody is an administrator. Set it to a comma-separated list of addresses.",
  );
}

const forgedAddress = forgedAddressWarning(env);
if (forgedAddress) console.warn(forgedAddress);

// Instances that share a PostgreSQL database must sign sessions alike: with secrets of their own,
// each refused the others' sessions (people signed out on every other request behind a load balancer).
if (env.DATABASE_URL && env.AUTH_SECRET_GENERATED) {
  throw new StartupError(
    "[config] AUTH_SECRET: required with DATABASE_URL, so that every instance on the database signs sessions alike: set the same value of 32 or more random characters (for example from `openssl rand -base64 32`) on each.",
  );
}

// The pages' module is loaded before the database opens, and what its routes declare (body limits,
// cached pages) is checked: a mistake stops the start before anything is touched. Compiling it holds
// this thread for most of a second, several on a busy machine, which the watchdog started below
// would have taken for a stuck thread.
const build = () => import("virtual:react-router/server-build") as Promise<ServerBuild>;
const serverBuild = await build();
routeTable(serverBuild);
// React Router derives its routes and handler from a build given as a function on every request
// (a few percent of a signed-in page's time), and from a value once. Only development's build changes.
const routerBuild = env.NODE_ENV === "development" ? build : serverBuild;

// The built server gives the embedded database a thread of its own (docs/decisions/037-the-database-on-its-own-thread.md);
// in development it stays on this one, where Vite reloads it with the rest.
const database = await connectDatabase({ thread: import.meta.env.PROD, bounded: true });
// The embedded database keeps no planner statistics by itself: read them afresh at each start,
// then vacuum and read again what changes, as autovacuum would (app/.server/platform/db/upkeep.ts).
await refreshPlannerStatistics();
const stopUpkeep = startEmbeddedUpkeep();
// From here on a stuck thread is a fault (a slow start is the supervisor's to time).
// A debugger's pause is not: development has no watchdog.
const stopWatchdog =
  env.NODE_ENV === "development"
    ? () => {}
    : startWatchdog(
        env.WATCHDOG_SECONDS,
        "thread" in database.raw ? [{ what: "database thread", beat: database.raw.thread.beat }] : [],
      );
const stopRealtime = await startRealtime(database);
const stopPageCache = startPageCache();
// Counted views wait on disk for their batch, so a crash or a stop while the database is slow loses none.
// One of several processes on this port (server/processes.js) keeps a journal of its own,
// which the process that replaces it in its slot takes over; the first also takes those of
// slots that no longer run (fewer processes than before).
const viewsDir = path.join(env.DATA_DIR, "views");
if (dataDirectoryInUse(env) && env.NAMECARD_PROCESS_SLOT === 1) adoptJournals(viewsDir, env.NAMECARD_PROCESSES);
await startCountingViews({
  journalDir: dataDirectoryInUse(env)
    ? path.join(viewsDir, ...(env.NAMECARD_PROCESS_SLOT > 1 ? [`process-${env.NAMECARD_PROCESS_SLOT}`] : []))
    : undefined,
});
// Invitations, reminders and leads leave through the mail queue kept in the database; each of
// its rounds first queues the reminders due and deletes the leads past the retention period.
const stopMailQueue = startMailQueue({
  beforeEach: (now) => Promise.all([sendDueReminders(now), deleteExpiredLeads(now)]),
});
// Bulk imports run here, off the request path (docs/decisions/020-bulk-import.md).
await startImportWorker({ soleInstance: database.kind === "pglite" });
// The embedded database ends the process when its disk fills: changes stop while a reserve is
// free, and resume once there is room again (docs/decisions/040-faults-answered-honestly.md).
// Looked at once the start's own few writes are done (a start needs one segment of the log free: app/.server/platform/env.ts).
const stopDiskWatch =
  database.kind === "pglite"
    ? await watchDiskSpace({
        directory: env.DATA_DIR,
        reserveBytes: env.DISK_RESERVE_MB * 1024 * 1024,
        onLow: () => setReadOnly(true),
        onRecovered: () => setReadOnly(false),
      })
    : async () => {};
console.info(
  `[db] ${database.kind === "pglite" ? `embedded PGlite in ${env.DATA_DIR}` : "PostgreSQL"}: migrations applied`,
);

export const config = { port: env.PORT, host: env.HOST, publicUrl: env.PUBLIC_URL };

// The request log of server/serve.js shows addresses by the one rule (docs/decisions/039-no-secrets-in-logs.md).
export { loggedUrl } from "~/.server/platform/log-redaction";
export { limitConnections } from "./connections";

// `npm run backup` reaches a server on the embedded database through it (docs/decisions/012-backups.md).
const withdrawControl = database.kind === "pglite" ? publishControl(env.PORT) : () => {};

/** Makes the embedded database refuse every change (PostgreSQL's own read-only transactions), or take them again. */
async function setReadOnly(readOnly: boolean) {
  await getDatabaseHandle().db.execute(
    readOnly ? sql`set default_transaction_read_only = on` : sql`set default_transaction_read_only = off`,
  );
}

/** Whether every percent-escape of the URL decodes to valid UTF-8 text without NUL. */
function isWellFormedUrl(raw: string): boolean {
  const [path = "", query = ""] = raw.split(/\?(.*)/s);
  const parts = [path, ...query.split("&").map((part) => part.replace(/\+/g, " "))];
  for (const part of parts) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(part);
    } catch {
      return false;
    }
    if (decoded.includes("\u0000")) return false;
  }
  return true;
}

/** A strict policy for everything but pages, which replace it with their own (with a nonce). */
const DEFAULT_CSP = "default-src 'none'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'";

function securityHeaders(_req: Request, res: Response, next: NextFunction) {
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  res.setHeader("X-Frame-Options", "SAMEORIGIN");
  res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
  res.setHeader("Content-Security-Policy", DEFAULT_CSP);
  if (env.PUBLIC_URL.startsWith("https://")) {
    res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  }
  next();
}

/**
 * What every request passes before anything responds to it, static files
 * included: the client-address rule, a well-formed URL, the security headers
 * and the health check.
 */
export function prepare(app: Express) {
  // Only a configured proxy may tell us who the client is (docs/decisions/010-hardening-the-edge.md).
  app.set("trust proxy", env.TRUST_PROXY);
  app.use((req: Request, _res: Response, next: NextFunction) => {
    delete req.headers[CLIENT_IP_HEADER];
    // The host is the Host header the proxy passes on; a client's own X-Forwarded-Host is ignored.
    delete req.headers["x-forwarded-host"];
    const ip = req.ip ?? req.socket.remoteAddress;
    if (ip) req.headers[CLIENT_IP_HEADER] = ip.replace(/^::ffff:/, "");
    next();
  });
  app.use(securityHeaders);
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (isWellFormedUrl(req.originalUrl)) return next();
    refuse(req, res, {
      status: 400,
      message: "This address contains characters that are not valid text. Check the link and try again.",
    });
  });
  app.use(refuseUnknownExpectations);
  app.get("/healthz", async (_req: Request, res: Response) => {
    const health = await checkHealth();
    if (!health.ok) res.set("Retry-After", String(RETRY_AFTER_SECONDS));
    res
      .status(health.ok ? 200 : 503)
      .set("Cache-Control", "no-store")
      .json(health);
  });
}

/** The app itself, after static files. */
export function handle(app: Express) {
  app.post(BACKUP_PATH, backupEndpoint);
  app.post(MISDIRECTED_SAML_PATH, misdirectedSamlEndpoint);
  // Provisioning from the company's identity provider: an API with bearer tokens, beside the pages.
  app.use(SCIM_PATH, scimEndpoint);
  app.use(respondToOutagesWith503);
  // What the request's route declares (docs/decisions/023-route-declared-limits.md).
  app.use(findRoutes(routerBuild));
  // Anonymous cards are served from the page cache (docs/decisions/018-reused-cards-and-batched-views.md).
  app.use(servePages);
  app.use(
    createRequestHandler({
      cacheResponse,
      build: routerBuild,
      mode: env.NODE_ENV,
      route: (_req, res) => routeOf(res),
      signedIn: (req) => /(?:^|;\s*)(?:__Secure-)?namecard\.session_token=/.test(req.headers.cookie ?? ""),
      getLoadContext: (_req, res) => res.locals.routerContext as RouterContextProvider,
    }),
  );
  app.use(respondToErrors);
}

/**
 * The last word on a request whose handler failed outside React Router's own
 * handling (a cached page's count, a response being sent): an outage is the same
 * calm 503 (or 507) as everywhere, and anything else a 500 logged in one line,
 * never Express's page with a stack trace.
 */
function respondToErrors(error: unknown, req: Request, res: Response, _next: NextFunction) {
  const outage = isDatabaseUnavailable(error) || outageNoted();
  if (outage && !diskSpaceLow()) {
    console.warn(`[db] unavailable: ${req.method} ${loggedUrl(req.path)} answered 503 (${databaseErrorLine(error)})`);
  } else if (!outage) {
    // A failed query's error holds the values it carried: its database message is enough.
    console.error(
      `[server] ${req.method} ${loggedUrl(req.path)} failed:`,
      isFailedQuery(error) ? databaseErrorLine(error) : error,
    );
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  refuse(req, res, {
    status: outage ? outageStatus() : 500,
    message: outage
      ? "Namecard is temporarily unavailable. Please try again in a moment."
      : "Something went wrong. Please try again.",
    headers: outage ? { "Retry-After": String(RETRY_AFTER_SECONDS) } : {},
  });
}

/**
 * Each request gets its router context here, so that after React Router has
 * responded we can tell whether it failed because the database is unavailable
 * (app/.server/http/outage.ts). Pages and data requests get 503 from
 * app/entry.server.tsx; a file route (vCard, QR code, export) that failed for
 * that reason gets 503 here instead of 500.
 */
function respondToOutagesWith503(req: Request, res: Response, next: NextFunction) {
  const context = new RouterContextProvider();
  res.locals.routerContext = context;
  const status = res.status.bind(res);
  res.status = (code: number) => {
    if (code === 500 && failedForOutage(context)) {
      res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
      return status(outageStatus());
    }
    return status(code);
  };
  // Reads have a time budget on PostgreSQL; an event stream is a read meant to last.
  const budgeted = (req.method === "GET" || req.method === "HEAD") && req.path !== "/events";
  watchForOutage(() => {
    // Listeners run in the context of whoever emits: the end is bound to this request's.
    res.once("close", AsyncLocalStorage.bind(responseSent));
    next();
  }, budgeted);
}

/** The first step of a graceful stop: event streams and lingering refusals end, so only real requests are waited for. */
export function endStreams() {
  endEventStreams();
  endLingering();
}

/** Closes the database; PGlite would otherwise keep the process alive. */
export async function shutdown() {
  withdrawControl();
  // The database's upkeep can wait for the next start: a round under way ends after its table.
  await stopUpkeep();
  // Every counted view is written before the database closes.
  await stopCountingViews();
  await flushSaves().catch((error: unknown) =>
    console.error(`[saves] the last saves of cards could not be written: ${(error as Error).message}`),
  );
  // A mail being sent is finished; the rest waits in the database for the next start.
  await stopMailQueue();
  // The batch in progress commits; the import goes on at the next start.
  await stopImportWorker();
  stopPageCache();
  await stopRealtime();
  await stopDiskWatch();
  await database.close();
  stopWatchdog();
}
