import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openPglite, openPostgres } from "../../app/.server/platform/db/client";
import { dropDatabase } from "../support/postgres";
import { present } from "../support/present";

/**
 * Migrates once per run: a PGlite data-dir dump that each test worker loads in
 * under a second, or a PostgreSQL template database that each worker copies.
 * Every database of a run carries the run's id, so two runs never touch each
 * other's, and the run drops its own when it ends.
 */
const TEST_DATABASE_PREFIX = `namecard_test_${process.pid}_${randomBytes(3).toString("hex")}_`;

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
    pgTemplate: string;
    /** Every PostgreSQL database of this run starts with it. */
    pgDatabasePrefix: string;
  }
}

export function adminUrl(url: string, database = "postgres") {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function withAdmin<T>(url: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl(url) });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `TEST_DATABASE_URL is set but PostgreSQL does not answer at ${new URL(url).host} ` +
        `(${(error as Error).message}). Start it, or unset TEST_DATABASE_URL to test on PGlite only.`,
    );
  }
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

async function setupPostgres(project: TestProject) {
  const url = present(process.env.TEST_DATABASE_URL, "TEST_DATABASE_URL");
  // Each project (server:postgres, process:postgres) has its own template and databases, and drops only its own.
  const prefix = `${TEST_DATABASE_PREFIX}${project.name.replace(/\W+/g, "_")}_`;
  const template = `${prefix}template`;
  await withAdmin(url, (admin) => admin.query(`create database ${template}`));
  const handle = openPostgres(adminUrl(url, template), 1);
  await handle.migrate();
  await handle.close();
  project.provide("pgTemplate", template);
  project.provide("pgDatabasePrefix", prefix);

  return async function dropThisRunsDatabases() {
    await withAdmin(url, async (admin) => {
      const { rows } = await admin.query<{ datname: string }>(
        "select datname from pg_database where starts_with(datname, $1)",
        [prefix],
      );
      for (const { datname } of rows) await dropDatabase(admin, datname);
    });
  };
}

/** The migrations and the PGlite version decide the template: unchanged, the last one is reused. */
function pgliteTemplateFile() {
  const hash = createHash("sha256");
  const migrations = path.resolve("drizzle");
  for (const name of fs.readdirSync(migrations, { recursive: true, encoding: "utf8" }).sort()) {
    const file = path.join(migrations, name);
    if (fs.statSync(file).isFile()) hash.update(name).update(fs.readFileSync(file));
  }
  hash.update(JSON.parse(fs.readFileSync("node_modules/@electric-sql/pglite/package.json", "utf8")).version);
  return path.resolve(`tests/.tmp/pglite-template-${hash.digest("hex").slice(0, 16)}.tar.gz`);
}

async function setupPglite(project: TestProject) {
  const file = pgliteTemplateFile();
  project.provide("pgliteTemplate", file);
  if (fs.existsSync(file)) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const handle = await openPglite({});
  await handle.migrate();
  if (!("pglite" in handle.raw)) throw new Error("expected PGlite");
  const dump = await handle.raw.pglite.dumpDataDir("gzip");
  // Written under another name first, so a run that stops halfway leaves no broken template.
  const partial = `${file}.${process.pid}.partial`;
  fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  fs.renameSync(partial, file);
  await handle.close();
}

export default function setup(project: TestProject) {
  return project.name.endsWith(":postgres") ? setupPostgres(project) : setupPglite(project);
}
