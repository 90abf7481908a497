import "react-router";
import { createRequestHandler } from "@react-router/express";
import type { Express, NextFunction, Request, Response } from "express";
import { CLIENT_IP_HEADER } from "~/.server/auth";
import { ping } from "~/.server/db/client";
import { connectDatabase } from "~/.server/db/connect";
import { env } from "~/.server/env";
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
    const ok = await ping();
    res
      .status(ok ? 200 : 503)
      .set("Cache-Control", "no-store")
      .json({ ok });
  });
  app.use(
    createRequestHandler({
      build: () => import("virtual:react-router/server-build"),
    }),
  );
}

/** The first step of a graceful stop: event streams end, so only real requests are waited for. */
export function endStreams() {
  endEventStreams();
}

/** Closes the database; PGlite would otherwise keep the process alive. */
export async function shutdown() {
  await stopRealtime();
  await database.close();
}
