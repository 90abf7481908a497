import type { Request, Response } from "express";
import { writeBackup } from "~/.server/backup/archive";
import { isControlToken } from "~/.server/backup/control";
import { getDatabaseHandle } from "~/.server/platform/db/client";
import { databaseErrorLine } from "~/.server/platform/db/errors";
import { getStorage } from "~/.server/platform/storage";

/**
 * The HTTP side of `npm run backup` on the embedded database
 * (docs/decisions/012-backups.md): the script posts here, on the loopback
 * address, with the token the server published into DATA_DIR
 * (app/.server/backup/control.ts), and reads the archive from the response.
 */

function isLoopback(address: string | undefined) {
  return address === "127.0.0.1" || address === "::1" || address === "::ffff:127.0.0.1";
}

function tokenMatches(header: string | undefined) {
  return header?.startsWith("Bearer ") === true && isControlToken(header.slice("Bearer ".length));
}

/** Streams the archive to a local caller that holds the token; anyone else gets 404, as for any unknown address. */
export async function backupEndpoint(req: Request, res: Response) {
  // The socket's own address: a proxy header never makes a remote caller local.
  if (!isLoopback(req.socket.remoteAddress) || !tokenMatches(req.headers.authorization)) {
    res.status(404).type("text/plain").send("Not found");
    return;
  }
  const handle = getDatabaseHandle();
  res.status(200).set({ "Content-Type": "application/gzip", "Cache-Control": "no-store" });
  try {
    const summary = await writeBackup(handle.db, getStorage(), handle.kind, res);
    console.info(`[backup] archive sent: ${JSON.stringify(summary.tables)}, ${summary.files} files`);
  } catch (error) {
    console.error(`[backup] failed: ${databaseErrorLine(error)}`);
    res.destroy(error as Error);
  }
}
