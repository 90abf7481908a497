import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { Express } from "express";

/**
 * Connections a client may hold at once. A browser opens six to a site; an
 * office or a fair's Wi-Fi puts hundreds of phones behind one address, each
 * with a few. One address holding more is refused at once (the socket is
 * closed unanswered), so it cannot use up the process's file descriptors.
 * A trusted proxy's connections are not counted: they carry many clients,
 * and the proxy bounds each of them (nginx `limit_conn`).
 */
export const MAX_CONNECTIONS_PER_CLIENT = 200;
/** A client has this long to send a request's headers, and this long for the whole request (a photo on a slow phone). */
export const HEADERS_TIMEOUT_MS = 15_000;
const REQUEST_TIMEOUT_MS = 120_000;
/**
 * How long an idle keep-alive connection stays open. Node's default of 5 s is
 * shorter than a proxy's or a client's own idle time (nginx and cloud load
 * balancers keep theirs 60 s): a request sent on a connection just as the
 * server closes it fails with a reset, and only browsers send it again. Idle
 * connections still count against a client's share, and a graceful stop
 * closes them at once.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export function limitConnections(listener: Server, app: Express) {
  listener.headersTimeout = HEADERS_TIMEOUT_MS;
  listener.requestTimeout = REQUEST_TIMEOUT_MS;
  listener.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  const trusted = app.get("trust proxy fn") as (address: string, hop: number) => boolean;
  const open = new Map<string, number>();
  listener.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress;
    if (!address || trusted(address, 0)) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > MAX_CONNECTIONS_PER_CLIENT) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
