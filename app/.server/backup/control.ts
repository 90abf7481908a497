import { randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Request, Response } from "express";
import { getDatabaseHandle } from "../db/client";
import { env } from "../env";
import { getStorage } from "../storage";
import { writeBackup } from "./archive";

/**
 * While a server runs on the embedded database it is the only process that may
 * open it (docs/decisions/014-one-owner-per-data-directory.md), so
 * `npm run backup` asks the server for the archive instead
 * (docs/decisions/012-backups.md): over HTTP on the loopback address, with a
 * token the server writes at start into DATA_DIR (readable by its user only)
 * and removes when it stops. Whoever can read DATA_DIR can read the database
 * anyway; nobody else can ask.
 */
export const BACKUP_PATH = "/_namecard/backup";

type Control = { pid: number; port: number; token: string };

function controlFile(dataDir = env.DATA_DIR) {
  return path.join(dataDir, "control.json");
}

let token: string | undefined;

/** Publishes how a local `npm run backup` reaches this server; returns how to withdraw it. */
export function publishControl(port: number): () => void {
  token = randomBytes(32).toString("base64url");
  const file = controlFile();
  const control: Control = { pid: process.pid, port, token };
  fs.rmSync(file, { force: true });
  fs.writeFileSync(file, `${JSON.stringify(control)}\n`, { mode: 0o600, flag: "wx" });
  return () => {
    try {
      const current = JSON.parse(fs.readFileSync(file, "utf8")) as Control;
      if (current.pid === process.pid) fs.rmSync(file, { force: true });
    } catch {
      // already gone
    }
  };
}

/** The running server's control details, when one is running on this DATA_DIR. */
export function readControl(dataDir: string): Control | null {
  try {
    const control = JSON.parse(fs.readFileSync(controlFile(dataDir), "utf8")) as Control;
    process.kill(control.pid, 0);
    return control;
  } catch {
    return null;
  }
}

function isLoopback(address: string | undefined) {
  return address === "127.0.0.1" || address === "::1" || address === "::ffff:127.0.0.1";
}

function tokenMatches(header: string | undefined) {
  if (!token || !header?.startsWith("Bearer ")) return false;
  const given = Buffer.from(header.slice("Bearer ".length));
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
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
    console.error("[backup] failed:", error);
    res.destroy(error as Error);
  }
}
