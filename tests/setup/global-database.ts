import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openPglite, openPostgres } from "../../app/.server/db/client";

/**
 * Migrates once per run: a PGlite data-dir dump that each test file loads in
 * under a second, or a PostgreSQL template database that each
 * test file copies.
 */
export const PG_TEMPLATE = "namecard_test_template";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
    pgTemplate: string;
  }
}

export function adminUrl(url: string, database = "postgres") {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export default async function setup(project: TestProject) {
  if (project.name === "server:postgres") {
    const url = process.env.TEST_DATABASE_URL!;
    const admin = new pg.Client({ connectionString: adminUrl(url) });
    await admin.connect();
    try {
      await admin.query(`drop database if exists ${PG_TEMPLATE} with (force)`);
      await admin.query(`create database ${PG_TEMPLATE}`);
    } finally {
      await admin.end();
    }
    const handle = openPostgres(adminUrl(url, PG_TEMPLATE), 1);
    await handle.migrate();
    await handle.close();
    project.provide("pgTemplate", PG_TEMPLATE);
    return;
  }
  const file = path.resolve("tests/.tmp/pglite-template.tar.gz");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const handle = await openPglite({});
  await handle.migrate();
  if (!("pglite" in handle.raw)) throw new Error("expected PGlite");
  const dump = await handle.raw.pglite.dumpDataDir("gzip");
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide("pgliteTemplate", file);
}
