import { createRequestHandler } from "@react-router/express";
import type { Express, NextFunction, Request, Response } from "express";
import { RouterContextProvider } from "react-router";
import { CLIENT_IP_HEADER } from "~/.server/auth";
import { BACKUP_PATH, backupEndpoint, publishControl } from "~/.server/backup/control";
import { connectDatabase } from "~/.server/db/connect";
import { env } from "~/.server/env";
import { checkHealth } from "~/.server/health";
import { failedForOutage, RETRY_AFTER_SECONDS } from "~/.server/outage";
import { endStreams as endEventStreams, startRealtime } from "~/.server/realtime";

/**
 * The server half of Namecard that is built with the app: configuration,
 * database, the client-IP rule, health, and the React Router handler.
 * `server.js` mounts it beside static files and owns the process.
 */

if (env.ADMIN_EMAILS.length === 0) {
  console.warn(
    "[config] ADMIN_EMAILS is not set: nobody is an administrator. Set it to a comma-separated list of addresses.",
  );
}

const database = await connectDatabase();
const stopRealtime = await startRealtime(database);
console.info(
  `[db] ${database.kind === "pglite" ? `embedded PGlite in ${env.DATA_DIR}` : "PostgreSQL"}: migrations applied`,
);

export const config = { port: env.PORT, publicUrl: env.PUBLIC_URL };

// `npm run backup` reaches a server on the embedded database through it (docs/decisions/011-backups.md).
const withdrawControl = database.kind === "pglite" ? publishControl(env.PORT) : () => {};

/** Everything that must happen once per request before the app sees it. */
export function install(app: Express) {
  // Only a configured proxy may tell us who the client is (docs/decisions/003-custom-server.md).
  app.set("trust proxy", env.TRUST_PROXY);
  app.use((req: Request, _res: Response, next: NextFunction) => {
    delete req.headers[CLIENT_IP_HEADER];
    const ip = req.ip ?? req.socket.remoteAddress;
    if (ip) req.headers[CLIENT_IP_HEADER] = ip.replace(/^::ffff:/, "");
    next();
  });
  app.use((_req: Request, res: Response, next: NextFunction) => {
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "SAMEORIGIN");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
    if (env.PUBLIC_URL.startsWith("https://")) {
      res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    }
    next();
  });
  app.get("/healthz", async (_req: Request, res: Response) => {
    const health = await checkHealth();
    res
      .status(health.ok ? 200 : 503)
      .set("Cache-Control", "no-store")
      .json(health);
  });
  app.post(BACKUP_PATH, backupEndpoint);
  app.use(answerOutagesWith503);
  app.use(
    createRequestHandler({
      build: () => import("virtual:react-router/server-build"),
      getLoadContext: (_req: Request, res: Response) => res.locals.routerContext as RouterContextProvider,
    }),
  );
}

/**
 * Each request gets its router context here, so that after React Router has
 * answered we can tell whether it failed because the database is unavailable
 * (app/.server/outage.ts). Pages and data requests are answered 503 by
 * app/entry.server.tsx; a file route (vCard, QR code, export) that failed for
 * that reason gets 503 here instead of 500.
 */
function answerOutagesWith503(_req: Request, res: Response, next: NextFunction) {
  const context = new RouterContextProvider();
  res.locals.routerContext = context;
  const status = res.status.bind(res);
  res.status = (code: number) => {
    if (code === 500 && failedForOutage(context)) {
      res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
      return status(503);
    }
    return status(code);
  };
  next();
}

/** The first step of a graceful stop: event streams end, so only real requests are waited for. */
export function endStreams() {
  endEventStreams();
}

/** Closes the database; PGlite would otherwise keep the process alive. */
export async function shutdown() {
  withdrawControl();
  await stopRealtime();
  await database.close();
}
