import path from "node:path";
import { env } from "../env";
import { type DatabaseHandle, openPglite, openPostgres, setDatabase } from "./client";

/**
 * Opens the configured database (PostgreSQL when DATABASE_URL is set, else
 * embedded PGlite in DATA_DIR), applies the migrations and installs it.
 */
export async function connectDatabase(): Promise<DatabaseHandle> {
  const handle = env.DATABASE_URL
    ? openPostgres(env.DATABASE_URL)
    : await openPglite({ dataDir: path.join(env.DATA_DIR, "db") });
  await handle.migrate();
  setDatabase(handle);
  return handle;
}
