import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, aroundEach, beforeAll, beforeEach, expect, inject } from "vitest";
import { isRetryableConflict } from "~/.server/platform/db/errors";
import { type DatabaseHandle, openPglite, openPostgres, setDatabase } from "../../app/.server/platform/db/client";
import { present } from "../support/present";
import { removeScratchDirs } from "../support/server-process";
import { ON_BOTH_ENGINES } from "./engines";
import { adminUrl } from "./global-database";
import { sentBy, watchSideBySide } from "./side-by-side";

/**
 * Each test worker gets its own freshly migrated database (PGlite, or
 * PostgreSQL when asked) and keeps it for every file it runs; every test
 * starts from empty tables. Opening a database per file cost more than most
 * files' tests. The run's teardown drops the PostgreSQL copies.
 */
const WORKER_DATABASE = Symbol.for("namecard.tests.worker-database");
type WorkerGlobal = typeof globalThis & { [WORKER_DATABASE]?: Promise<DatabaseHandle> };

async function openWorkerDatabase(): Promise<DatabaseHandle> {
  if (process.env.NAMECARD_TEST_DB === "postgres") {
    const url = present(process.env.TEST_DATABASE_URL, "TEST_DATABASE_URL");
    const name = `${inject("pgDatabasePrefix")}w${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: adminUrl(url) });
    await admin.connect();
    try {
      await admin.query(`create database ${name} template ${inject("pgTemplate")}`);
    } finally {
      await admin.end();
    }
    // Tests that start real server processes point them at this worker's database.
    process.env.NAMECARD_FILE_DATABASE_URL = adminUrl(url, name);
    return openPostgres(process.env.NAMECARD_FILE_DATABASE_URL, 4);
  }
  const dump = fs.readFileSync(inject("pgliteTemplate"));
  return openPglite({ loadDataDir: new Blob([dump]) });
}

let handle: DatabaseHandle;

beforeAll(async () => {
  const worker = globalThis as WorkerGlobal;
  worker[WORKER_DATABASE] ??= openWorkerDatabase();
  handle = await worker[WORKER_DATABASE];
  setDatabase(handle);
  if ("pglite" in handle.raw) watchSideBySide(handle.raw.pglite);
});

/** This file's path, as the tests name it. */
function testFile() {
  return path.relative(process.cwd(), present(expect.getState().testPath, "the test file"));
}

// A file that runs statements beside an open transaction runs on PostgreSQL too, where they take
// a second connection and the engine decides what each sees: on PGlite they only wait in line.
// Its tests' statements, and those of the work they set going, are marked as the file's.
aroundEach(async (runTest) => {
  await sentBy(testFile(), runTest);
});

afterAll(() => {
  if (!("pglite" in handle.raw)) return;
  const file = testFile();
  if (watchSideBySide(handle.raw.pglite).transactionMet.has(file) && !ON_BOTH_ENGINES.includes(file)) {
    throw new Error(
      `${file} runs a statement beside an open transaction, which takes PostgreSQL a second connection: list it in tests/setup/engines.ts so that it runs on PostgreSQL too`,
    );
  }
});

beforeEach(async () => {
  // Work a previous test left running (a batch of counted views or saves being written) may lock the
  // tables in another order: PostgreSQL then ends one side as a deadlock, and the truncate runs again.
  for (let attempt = 1; ; attempt++) {
    try {
      await handle.db.execute(
        sql`truncate users, sessions, accounts, verifications, rate_limits, throttle_events, email_links, profiles, profile_views, brands, site_settings, audit_log, identity_providers, sso_logins, saml_assertions, scim_connections, wallet_settings, leads, card_saves restart identity cascade`,
      );
      return;
    } catch (error) {
      if (attempt >= 3 || !isRetryableConflict(error)) throw error;
    }
  }
});

// The folders a file's servers and archives used go once the file is done (its own afterAll hooks, which
// stop its servers, run first): a run leaves nothing in the system's temporary folder.
afterAll(removeScratchDirs);
