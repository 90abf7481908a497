import fs from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { createGunzip, createGzip } from "node:zlib";
import { type SQL, sql } from "drizzle-orm";
import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import { type Database, rowsOf } from "../db/client";
import {
  accounts,
  auditLog,
  brands,
  cardSaves,
  emailLinks,
  healthChecks,
  identityProviderDomains,
  identityProviders,
  importRows,
  imports,
  invitations,
  leads,
  mailJobs,
  profiles,
  profileViews,
  rateLimits,
  samlAssertions,
  scimConnections,
  scimErrors,
  scimGroupMembers,
  scimGroups,
  scimUsers,
  sessions,
  siteSettings,
  ssoIdentities,
  ssoLogins,
  throttleEvents,
  usernameRedirects,
  users,
  verifications,
  walletSettings,
} from "../db/schema";
import { jpegKeyOf } from "../images";
import type { Storage } from "../storage";

/**
 * Namecard's backup archive (docs/decisions/012-backups.md): one gzip file of
 * JSON lines, the same for both engines, so an embedded installation moves to
 * PostgreSQL by restoring its archive there. In order:
 *
 *   {"namecard":"backup","format":1,"createdAt":…,"migrations":[…tags]}
 *   {"table":"users","rows":[…]}        one or more batches per table, parents first
 *   {"file":"profiles/….webp","contentType":…,"data":"<base64>"}
 *   {"end":{"tables":{…counts},"files":n,"missingFiles":[…]}}
 *
 * Rows are each table's columns as PostgreSQL's `to_jsonb` writes them, read in
 * one repeatable-read snapshot; files are the uploads those rows refer to.
 */
const ARCHIVE_FORMAT = 1;

/** Every table that holds data, parents before children. */
export const BACKUP_TABLES: PgTable[] = [
  users,
  accounts,
  // A provider's client secret and SAML certificates are in the archive as stored: encrypted with the server's secret.
  identityProviders,
  identityProviderDomains,
  ssoIdentities,
  brands,
  profiles,
  // After profiles: an invitation's link and state name a card.
  emailLinks,
  invitations,
  usernameRedirects,
  profileViews,
  siteSettings,
  // The administrators' record: history that a restore must keep.
  auditLog,
  // Provisioning: a connection's token is in the archive only as its SHA-256, which lets nobody in.
  scimConnections,
  scimUsers,
  scimGroups,
  scimGroupMembers,
  // The Google Wallet service account is in the archive as stored: sealed with the server's secret.
  walletSettings,
  // What visitors shared back from cards, with the consent they gave; deleted after the retention period.
  leads,
  cardSaves,
];

/**
 * Tables an archive leaves out on purpose: `throttle_events` counts the last
 * hour's mails and failed sign-ins (a restore starts them afresh), and
 * `health_checks` is written and emptied by every health check. `mail_jobs`
 * is mail waiting to leave or already gone: a restore must not send old
 * invitations again (the invitation state is kept, so the administrator can remind).
 */
export const NOT_BACKED_UP: PgTable[] = [
  // Secrets a restore does not need, which would let whoever reads an archive in: signed-in
  // sessions (people sign in again after a restore), pending reset and verification tokens
  // (asked for again), and the sign-in rate limits' counters.
  sessions,
  verifications,
  rateLimits,
  // Sign-ins on their way to a provider, and the SAML assertions already used: minutes old, useless after a restore.
  ssoLogins,
  samlAssertions,
  throttleEvents,
  healthChecks,
  mailJobs,
  // Uploaded import files and their progress: working copies, whose cards and brands are in the archive; a restore
  // must not take up an import half done on another database.
  imports,
  importRows,
  // A connection's refused requests: a log for its administrator, not data.
  scimErrors,
];

const BATCH_ROWS = 500;

type Header = { namecard: "backup"; format: number; createdAt: string; engine: string; migrations: string[] };
type Line =
  | Header
  | { table: string; rows: Record<string, unknown>[] }
  | { file: string; contentType: string; data: string }
  | { end: BackupSummary };

export type BackupSummary = { tables: Record<string, number>; files: number; missingFiles: string[] };

/** The migrations this build carries, by tag, in order. */
function knownMigrations(): string[] {
  const journal = JSON.parse(fs.readFileSync(path.resolve(process.cwd(), "drizzle/meta/_journal.json"), "utf8")) as {
    entries: { tag: string }[];
  };
  return journal.entries.map((entry) => entry.tag);
}

/** A table's primary key columns: a column's own, or the table's composite key (an identity's issuer and subject). */
export function primaryKeyOf(table: PgTable): string[] {
  const config = getTableConfig(table);
  const own = config.columns.filter((column) => column.primary).map((column) => column.name);
  return own.length > 0 ? own : config.primaryKeys.flatMap((key) => key.columns.map((column) => column.name));
}

function nameOf(table: PgTable) {
  return getTableConfig(table).name;
}

function quoted(name: string) {
  return sql.raw(`"${name.replace(/"/g, '""')}"`);
}

/** The uploads a table's row refers to: photos with their JPEG rendition, logos, covers, the site's images. */
function filesOf(table: string, row: Record<string, unknown>): unknown[] {
  if (table === "profiles") {
    const photo = row.profile_photo;
    return typeof photo === "string" && photo ? [photo, jpegKeyOf(photo)] : [];
  }
  if (table === "brands") return [row.logo, row.cover_image];
  if (table === "site_settings") return [row.primary_logo, row.dark_mode_logo, row.favicon, row.footer_logo];
  return [];
}

/**
 * Reads every table in one snapshot, `BATCH_ROWS` rows at a time through a
 * cursor, handing each batch to `take` as it comes: neither this process nor
 * the embedded database ever holds a whole table (a backup of 150,000 cards
 * read at once grew the server by 240 MB, and the embedded database's memory
 * never shrinks). PGlite runs one statement at a time, so there the
 * transaction holds other queries back while it reads.
 */
async function readSnapshot(
  db: Database,
  take: (table: string, rows: Record<string, unknown>[]) => Promise<void>,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`set transaction isolation level repeatable read, read only`);
    await tx.execute(sql`set local timezone = 'UTC'`);
    for (const table of BACKUP_TABLES) {
      const name = nameOf(table);
      const primaryKey = primaryKeyOf(table);
      const order = sql.join(
        primaryKey.map((column) => quoted(column)),
        sql`, `,
      );
      await tx.execute(sql`declare backup_rows no scroll cursor for
        select to_jsonb(t) as row from ${quoted(name)} t order by ${order}`);
      for (;;) {
        const rows = rowsOf(await tx.execute(sql.raw(`fetch ${BATCH_ROWS} from backup_rows`))).map((entry) => {
          const value = (entry as { row: unknown }).row;
          return (typeof value === "string" ? JSON.parse(value) : value) as Record<string, unknown>;
        });
        if (rows.length > 0) await take(name, rows);
        if (rows.length < BATCH_ROWS) break;
      }
      await tx.execute(sql`close backup_rows`);
    }
  });
}

/** Writes `text` to a stream, waiting while it is full. */
function writeTo(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (stream.write(text)) resolve();
    else stream.once("drain", resolve);
  });
}

/**
 * Writes the archive for an open database and store into `output` (a file, or
 * an HTTP answer). The rows are compressed as they are read and kept, only
 * compressed, until the snapshot ends: a slow reader of the archive never
 * holds the database. The files follow straight to `output`.
 */
export async function writeBackup(
  db: Database,
  storage: Storage,
  engine: string,
  output: NodeJS.WritableStream,
): Promise<BackupSummary> {
  const summary: BackupSummary = { tables: {}, files: 0, missingFiles: [] };
  const gzip = createGzip();
  const done = new Promise<void>((resolve, reject) => {
    output.on("error", reject);
    output.on("finish", resolve);
    output.on("close", resolve);
    gzip.on("error", reject);
  });
  // Awaited below; until then a failure of the output must not go unhandled.
  done.catch(() => {});
  const compressed: Buffer[] = [];
  const keep = (chunk: Buffer) => compressed.push(chunk);
  gzip.on("data", keep);

  const header: Header = {
    namecard: "backup",
    format: ARCHIVE_FORMAT,
    createdAt: new Date().toISOString(),
    engine,
    migrations: knownMigrations(),
  };
  await writeTo(gzip, `${JSON.stringify(header)}\n`);
  const files = new Set<string>();
  for (const table of BACKUP_TABLES) summary.tables[nameOf(table)] = 0;
  await readSnapshot(db, async (table, rows) => {
    summary.tables[table] = (summary.tables[table] ?? 0) + rows.length;
    for (const row of rows) for (const key of filesOf(table, row)) if (typeof key === "string" && key) files.add(key);
    await writeTo(gzip, `${JSON.stringify({ table, rows })}\n`);
  });

  // The snapshot is read and the database free again: what was kept goes out first, then the rest as it comes.
  gzip.pause();
  gzip.off("data", keep);
  for (const chunk of compressed.splice(0)) output.write(chunk);
  gzip.pipe(output);
  for (const key of [...files].sort()) {
    const object = await storage.get(key);
    if (!object) {
      // Gone already (deleted by hand, or replaced while the backup ran): the
      // restored record then shows its fallback, as it does today.
      summary.missingFiles.push(key);
      continue;
    }
    summary.files++;
    await writeTo(
      gzip,
      `${JSON.stringify({ file: key, contentType: object.contentType, data: Buffer.from(object.body).toString("base64") })}\n`,
    );
  }
  gzip.end(`${JSON.stringify({ end: summary })}\n`);
  await done;
  return summary;
}

export class RestoreError extends Error {
  override name = "RestoreError";
}

/**
 * Reads an archive line by line. The text is decoded across the gunzip chunks
 * as one stream: a character whose bytes fall on both sides of a chunk's end
 * comes out whole (decoding each chunk alone turned "Inês" into "In��s").
 */
export async function* readArchiveLines(file: string): AsyncGenerator<Line> {
  const lines = createInterface({ input: fs.createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim()) yield JSON.parse(line) as Line;
  }
}

/** Columns a restore writes: all but generated ones (the search text is computed again). */
async function writableColumns(db: Database, table: string): Promise<string[]> {
  const result = await db.execute(
    sql`select column_name from information_schema.columns where table_schema = 'public' and table_name = ${table} and is_generated = 'NEVER' order by ordinal_position`,
  );
  return rowsOf(result).map((row) => (row as { column_name: string }).column_name);
}

async function assertEmpty(db: Database) {
  for (const table of BACKUP_TABLES) {
    const name = nameOf(table);
    const result = await db.execute(sql`select exists (select 1 from ${quoted(name)}) as present`);
    if ((rowsOf(result)[0] as { present: boolean }).present) {
      throw new RestoreError(
        `[restore] The database already holds data (table ${name}): restore into an empty DATA_DIR or an empty PostgreSQL database.`,
      );
    }
  }
}

/** Brings an archive back into an empty, migrated database and its store: files first, then every row in one transaction. */
export async function restoreBackup(db: Database, storage: Storage, file: string): Promise<BackupSummary> {
  await assertEmpty(db);
  const known = knownMigrations();
  const rows = new Map<string, Record<string, unknown>[]>();
  let end: BackupSummary | undefined;
  let header: Header | undefined;
  let files = 0;
  for await (const line of readArchiveLines(file)) {
    if ("namecard" in line) {
      header = line;
      if (line.format !== ARCHIVE_FORMAT) {
        throw new RestoreError(
          `[restore] ${file} is archive format ${line.format}; this Namecard reads format ${ARCHIVE_FORMAT}.`,
        );
      }
      const newer = line.migrations.filter((tag) => !known.includes(tag));
      if (newer.length) {
        throw new RestoreError(
          `[restore] ${file} was made by a newer Namecard (migrations ${newer.join(", ")}): upgrade this installation first.`,
        );
      }
    } else if (!header) {
      throw new RestoreError(`[restore] ${file} is not a Namecard backup.`);
    } else if ("table" in line) {
      const list = rows.get(line.table) ?? [];
      list.push(...line.rows);
      rows.set(line.table, list);
    } else if ("file" in line) {
      await storage.put(line.file, Buffer.from(line.data, "base64"), line.contentType);
      files++;
    } else if ("end" in line) {
      end = line.end;
    }
  }
  if (!header || !end) throw new RestoreError(`[restore] ${file} is cut short: it has no end. Nothing was restored.`);
  if (files !== end.files) throw new RestoreError(`[restore] ${file} lists ${end.files} files but holds ${files}.`);

  const counts: Record<string, number> = {};
  await db.transaction(async (tx) => {
    for (const table of BACKUP_TABLES) {
      const name = nameOf(table);
      const tableRows = rows.get(name) ?? [];
      counts[name] = tableRows.length;
      if (tableRows.length === 0) continue;
      const columns = await writableColumns(tx as unknown as Database, name);
      const list = sql.join(
        columns.map((column) => quoted(column)),
        sql`, `,
      );
      for (let start = 0; start < tableRows.length; start += BATCH_ROWS) {
        const batch = JSON.stringify(tableRows.slice(start, start + BATCH_ROWS));
        await tx.execute(
          sql`insert into ${quoted(name)} (${list}) select ${list} from jsonb_populate_recordset(null::${quoted(name)}, ${batch}::jsonb)`,
        );
      }
      await resetSequences(tx as unknown as Database, name);
    }
  });
  const leftOut = new Set(NOT_BACKED_UP.map(nameOf));
  for (const [name, count] of Object.entries(end.tables)) {
    // An archive made before a table was left out still lists it: its rows are not restored.
    if (leftOut.has(name)) continue;
    if (counts[name] !== count)
      throw new RestoreError(`[restore] table ${name}: expected ${count} rows, read ${counts[name] ?? 0}.`);
  }
  return { tables: counts, files, missingFiles: end.missingFiles };
}

/** Serial ids continue after the restored rows. */
async function resetSequences(db: Database, table: string) {
  const result = await db.execute(
    sql`select column_name, pg_get_serial_sequence(${`public.${table}`}, column_name) as sequence from information_schema.columns where table_schema = 'public' and table_name = ${table}`,
  );
  for (const row of rowsOf(result) as { column_name: string; sequence: string | null }[]) {
    if (!row.sequence) continue;
    const column: SQL = quoted(row.column_name);
    await db.execute(
      sql`select setval(${row.sequence}, coalesce((select max(${column}) from ${quoted(table)}), 1), (select count(*) > 0 from ${quoted(table)}))`,
    );
  }
}
