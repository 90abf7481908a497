import { randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env } from "../platform/env";

/**
 * While a server runs on the embedded database it is the only process that may
 * open it (docs/decisions/014-one-owner-per-data-directory.md), so
 * `npm run backup` asks the server for the archive instead
 * (docs/decisions/012-backups.md): over HTTP on the loopback address, with a
 * token the server writes at start into DATA_DIR (readable by its user only)
 * and removes when it stops. Whoever can read DATA_DIR can read the database
 * anyway; nobody else can ask. The endpoint that answers is server/backup-endpoint.ts.
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

/**
 * Whether `given` is the token this server published (the endpoint in
 * server/backup-endpoint.ts asks), compared in constant time so that timing
 * tells a caller nothing about it.
 */
export function isControlToken(given: string): boolean {
  if (!token) return false;
  const givenBytes = Buffer.from(given);
  const expected = Buffer.from(token);
  return givenBytes.length === expected.length && timingSafeEqual(givenBytes, expected);
}
