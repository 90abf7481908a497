import fs from "node:fs";
import path from "node:path";
import { env, fullDiskMessage, hasRoomToStart } from "../env";
import { StartupError } from "../startup-error";
import { type DatabaseHandle, openPglite, openPostgres, setDatabase } from "./client";
import { isDiskFull } from "./errors";

/**
 * Opens the configured database (PostgreSQL when DATABASE_URL is set, else
 * embedded PGlite in DATA_DIR), applies the migrations and installs it. With
 * `thread`, the embedded database runs on a thread of its own (the built
 * server; scripts keep it on theirs); with `bounded`, PostgreSQL's statements
 * have a time limit (the server's; scripts have none). A database that cannot be reached or
 * entered is a `StartupError` whose message says which part of DATABASE_URL
 * to check.
 */
export async function connectDatabase(options: { thread?: boolean; bounded?: boolean } = {}): Promise<DatabaseHandle> {
  let handle: DatabaseHandle | undefined;
  if (!env.DATABASE_URL && !hasRoomToStart(env.DATA_DIR)) throw new StartupError(fullDiskMessage(env.DATA_DIR));
  try {
    handle = env.DATABASE_URL
      ? openPostgres(env.DATABASE_URL, 10, options.bounded)
      : await openPglite({ dataDir: path.join(env.DATA_DIR, "db"), thread: options.thread });
    await handle.migrate();
  } catch (error) {
    await handle?.close().catch(() => {});
    if (env.DATABASE_URL) {
      const fault = describeConnectionFault(error, env.DATABASE_URL);
      if (fault) throw new StartupError(fault, { cause: error });
    } else if (isDiskFull(error) || (isFailedStart(error) && lowOnSpace(env.DATA_DIR))) {
      throw new StartupError(fullDiskMessage(env.DATA_DIR), { cause: error });
    }
    throw error;
  }
  setDatabase(handle);
  return handle;
}

/** PGlite's words for a start it could not finish, or a fault that ended it. */
function isFailedStart(error: unknown): boolean {
  return error instanceof Error && /failed to initiali[sz]e|abort/i.test(error.message);
}

/**
 * Whether DATA_DIR is below the embedded database's reserve: PGlite reports a
 * start it could not finish for want of space as "failed to initialize", so
 * the disk is looked at to tell the operator why.
 */
function lowOnSpace(dataDir: string): boolean {
  try {
    const space = fs.statfsSync(dataDir);
    return space.bavail * space.bsize < env.DISK_RESERVE_MB * 1024 * 1024;
  } catch {
    return false;
  }
}

/** One line for a PostgreSQL connection that failed, naming the part of the URL at fault; null when it is not one. */
function describeConnectionFault(error: unknown, databaseUrl: string): string | null {
  const { code, message } = error as { code?: string; message?: string };
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    return "[db] DATABASE_URL is not a valid URL: write it as postgresql://user:password@host:5432/database.";
  }
  const host = url.hostname || "localhost";
  const port = url.port || "5432";
  const user = decodeURIComponent(url.username) || "(none)";
  const database = decodeURIComponent(url.pathname.slice(1)) || user;
  switch (code) {
    case "28P01":
      return `[db] DATABASE_URL: PostgreSQL refused the password for user "${user}": check the user and password in DATABASE_URL (or DATABASE_PASSWORD, or the file DATABASE_PASSWORD_FILE names).`;
    case "28000":
      return `[db] DATABASE_URL: PostgreSQL does not let user "${user}" connect to "${database}" from here (${message}): check the user, or the server's pg_hba.conf.`;
    case "3D000":
      return `[db] DATABASE_URL: the database "${database}" does not exist on ${host}:${port}: create it (createdb ${database}) or fix the name in DATABASE_URL.`;
    case "ECONNREFUSED":
      return `[db] DATABASE_URL: nothing accepts connections on ${host}:${port}: check the host and port in DATABASE_URL, and that PostgreSQL is running.`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `[db] DATABASE_URL: the host "${host}" cannot be found: check the host name in DATABASE_URL.`;
    case "ETIMEDOUT":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `[db] DATABASE_URL: ${host}:${port} does not answer: check the host and port in DATABASE_URL, and the network between them.`;
    case "42501":
      return `[db] DATABASE_URL: user "${user}" may not create what the migrations need (${message}): let it create the pg_trgm and unaccent extensions, or create them once as an administrator.`;
  }
  if (/timeout/i.test(message ?? "")) {
    return `[db] DATABASE_URL: ${host}:${port} did not answer in time: check the host and port in DATABASE_URL, and that PostgreSQL is running.`;
  }
  if (/SSL|self-signed|certificate/i.test(message ?? "")) {
    return `[db] DATABASE_URL: the TLS connection to ${host}:${port} failed (${message}): check sslmode in DATABASE_URL.`;
  }
  return null;
}
