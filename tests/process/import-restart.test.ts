import path from "node:path";
import { type SQL, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { type DatabaseHandle, openPglite, openPostgres, rowsOf } from "~/.server/platform/db/client";
import { importPage, postImport, uploadImport } from "../support/imports";
import { createScratchDatabase, POSTGRES_URL } from "../support/postgres";
import { ON_POSTGRES, startedProcesses } from "../support/process-suite";
import {
  migratedDataDir,
  SERVER_BUILT,
  scratchDir,
  signedInMember,
  startServer,
  stop,
} from "../support/server-process";

/**
 * The server killed outright in the middle of a bulk import, then started
 * again on the same data: the import goes on by itself and ends with every row
 * imported once — no half batch, no card twice, no import stuck "running".
 * Once on the engine of the run.
 */
const ROWS = 2_000;

const started = startedProcesses("the import restart tests");
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

type Installation = { dataDir: string; databaseUrl?: string };

async function installation(): Promise<Installation> {
  if (!ON_POSTGRES) return { dataDir: await migratedDataDir() };
  const database = await createScratchDatabase();
  cleanups.push(database.drop);
  return { dataDir: scratchDir(), databaseUrl: database.url };
}

async function openDatabase(where: Installation): Promise<DatabaseHandle> {
  return where.databaseUrl
    ? openPostgres(where.databaseUrl, 1)
    : openPglite({ dataDir: path.join(where.dataDir, "db") });
}

async function rows<T>(handle: DatabaseHandle, query: SQL) {
  return rowsOf(await handle.db.execute(query)) as T[];
}

function file() {
  const lines = ["First name;Last name;E-mail;Job title"];
  for (let n = 0; n < ROWS; n++) lines.push(`Person;Number ${n};restart.${n}@example.org;Engineer`);
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}

describe.skipIf((ON_POSTGRES && !POSTGRES_URL) || !SERVER_BUILT)("a server killed during a bulk import", () => {
  it("takes the import up again after the restart and imports every row exactly once", async () => {
    const where = await installation();
    let server = await startServer(where);
    started.push(server);
    const cookie = await signedInMember(server, "admin@example.com", { first: "Ada", last: "Admin" });
    const location = await uploadImport({ server, cookie }, file());
    await postImport({ server, cookie }, location, "start", { columns: ["firstName", "lastName", "email", "title"] });

    // Killed once some batches are in and others are not.
    let before = await importPage({ server, cookie }, location);
    while (before.done === 0 && !before.finished) before = await importPage({ server, cookie }, location);
    await stop(server, "SIGKILL");
    expect(before.finished).toBe(false);

    if (where.databaseUrl) {
      // On PostgreSQL other instances may share the import, so it is taken up once its heartbeat
      // is 30 s old: the restart comes that much later here (the embedded one takes it up at once).
      const handle = await openDatabase(where);
      await handle.db.execute(sql`update imports set heartbeat_at = now() - interval '1 minute'`);
      await handle.close();
    }
    server = await startServer(where);
    started.push(server);
    // Taken up by itself, or when "Run it again" is chosen on an import shown as interrupted.
    const admin = { server, cookie };
    for (let state = await importPage(admin, location); !state.finished; ) {
      // The worker may take it up between the page and the press: then the press is refused, and it goes on anyway.
      if (state.interrupted) await postImport(admin, location, "retry", { mayBeTakenUp: true });
      await new Promise((resolve) => setTimeout(resolve, 250));
      state = await importPage(admin, location);
    }
    await stop(server, "SIGTERM");

    const handle = await openDatabase(where);
    try {
      const [cards] = await rows<{ count: number; distinct: number }>(
        handle,
        sql`select count(*)::int as count, count(distinct lower(email))::int as distinct from profiles where email like 'restart.%'`,
      );
      expect(cards).toEqual({ count: ROWS, distinct: ROWS });
      const [record] = await rows<Record<string, unknown>>(
        handle,
        sql`select status, processed_rows, created_cards, unchanged_rows, failed_rows from imports`,
      );
      // Rows of the batch cut off were planned again after the restart: still new cards, each made once.
      expect(record).toEqual({
        status: "done",
        processed_rows: ROWS,
        created_cards: ROWS,
        unchanged_rows: 0,
        failed_rows: 0,
      });
      const [pending] = await rows<{ count: number }>(
        handle,
        sql`select count(*)::int as count from import_rows where outcome is distinct from 'created'`,
      );
      expect(pending?.count).toBe(0);
    } finally {
      await handle.close();
    }
  }, 180_000);
});
