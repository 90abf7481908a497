import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, inject } from "vitest";
import { type DatabaseHandle, openPglite, openPostgres, setDatabase } from "../../app/.server/db/client";
import { adminUrl } from "./global-database";

/** Each test file gets its own freshly migrated database: PGlite, or PostgreSQL when asked. */
let handle: DatabaseHandle;
let postgresDatabase: string | undefined;

beforeAll(async () => {
  if (process.env.NAMECARD_TEST_DB === "postgres") {
    const url = process.env.TEST_DATABASE_URL!;
    postgresDatabase = `namecard_test_${randomBytes(6).toString("hex")}`;
    const admin = new pg.Client({ connectionString: adminUrl(url) });
    await admin.connect();
    await admin.query(`create database ${postgresDatabase} template ${inject("pgTemplate")}`);
    await admin.end();
    // Tests that start real server processes point them at this file's database.
    process.env.NAMECARD_FILE_DATABASE_URL = adminUrl(url, postgresDatabase);
    handle = openPostgres(process.env.NAMECARD_FILE_DATABASE_URL, 4);
  } else {
    const dump = fs.readFileSync(inject("pgliteTemplate"));
    handle = await openPglite({ loadDataDir: new Blob([dump]) });
  }
  setDatabase(handle);
});

beforeEach(async () => {
  await handle.db.execute(
    sql`truncate users, sessions, accounts, verifications, rate_limits, throttle_events, email_links, profiles, profile_views, brands, site_settings restart identity cascade`,
  );
});

afterAll(async () => {
  setDatabase(undefined);
  await handle?.close();
  if (postgresDatabase) {
    const admin = new pg.Client({ connectionString: adminUrl(process.env.TEST_DATABASE_URL!) });
    await admin.connect();
    await admin.query(`drop database if exists ${postgresDatabase} with (force)`);
    await admin.end();
  }
});
