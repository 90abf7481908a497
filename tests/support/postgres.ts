// Scratch PostgreSQL databases for tests that run real server processes:
// each gets an empty database of its own, dropped afterwards.
import { randomBytes } from "node:crypto";
import pg from "pg";

export const POSTGRES_URL = process.env.TEST_DATABASE_URL;

function withDatabase(url: string, database: string) {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDatabase(POSTGRES_URL!, "postgres") });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createScratchDatabase(): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `namecard_scratch_${randomBytes(5).toString("hex")}`;
  await admin((client) => client.query(`create database ${name}`));
  return {
    name,
    url: withDatabase(POSTGRES_URL!, name),
    drop: () => admin((client) => dropDatabase(client, name)),
  };
}

/**
 * Drops a database, ending its sessions. An autovacuum worker busy on it (after a big import,
 * say) belongs to no role, and PostgreSQL 15 lets only a superuser or a member of
 * pg_signal_backend end it: then the drop waits for the worker to finish and tries again.
 */
export async function dropDatabase(client: pg.Client, name: string, deadline = Date.now() + 120_000): Promise<void> {
  for (;;) {
    try {
      await client.query(`drop database if exists ${name} with (force)`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== "42501" || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Runs SQL as the test role against the server's maintenance database (for ALTER DATABASE and friends). */
export function adminQuery(text: string) {
  return admin((client) => client.query(text));
}

/**
 * Ends every client session on `database` but the caller's own, so that the next ones start
 * with its settings. Only client backends: an autovacuum worker on it belongs to the
 * superuser, and the test role may not end it.
 */
export function endSessions(database: string) {
  return adminQuery(
    `select pg_terminate_backend(pid) from pg_stat_activity
     where datname = '${database}' and pid <> pg_backend_pid() and backend_type = 'client backend'`,
  );
}
