import fs from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { createGunzip, createGzip } from "node:zlib";
import { type SQL, sql } from "drizzle-orm";
import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import { type Database, rowsOf } from "../platform/db/client";
import {
  accounts,
  auditLog,
  brandAdministrators,
  brandDomains,
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
  passkeys,
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
  ssoFailures,
  ssoIdentities,
  ssoLogins,
  throttleEvents,
  twoFactors,
  usernameRedirects,
  users,
  verifications,
  walletSettings,
} from "../platform/db/schema";
import { env } from "../platform/env";
import { jpegKeyOf } from "../platform/images";
import type { Storage } from "../platform/storage";
import { ArchiveChecksum, type Checksum, sameDigest } from "./checksum";

/**
 * Namecard's backup archive (docs/decisions/012-backups.md): one gzip file of
 * JSON lines, the same for both engines, so an embedded installation moves to
 * PostgreSQL by restoring its archive there. In order:
 *
 *   {"namecard":"backup","format":2,"createdAt":…,"migrations":[…tags]}
 *   {"table":"users","rows":[…]}        one or more batches per table, parents first
 *   {"file":"profiles/….webp","contentType":…,"data":"<base64>"}
 *   {"end":{"tables":{…counts},"files":n,"missingFiles":[…]}}
 *   {"checksum":{"sha256":…,"hmac":…}}  over every line before it, as written (./checksum.ts)
 *
 * Rows are each table's columns as PostgreSQL's `to_jsonb` writes them, read in
 * one repeatable-read snapshot; files are the uploads those rows refer to.
 * Format 1 was the same without the checksum line.
 */
const ARCHIVE_FORMAT = 2;
/** The format before archives carried a checksum: restored only when the operator says they trust the file. */
const UNCHECKED_FORMAT = 1;

/** Every table that holds data, parents before children. */
export const BACKUP_TABLES: PgTable[] = [
  users,
  accounts,
  // A second factor: the authenticator app's secret and recovery codes as stored, encrypted with the server's
  // secret; a passkey's public key, which lets nobody in by itself.
  twoFactors,
  passkeys,
  // A provider's client secret and SAML certificates are in the archive as stored: encrypted with the server's secret.
  identityProviders,
  identityProviderDomains,
  ssoIdentities,
  brands,
  // Who administers which brand, and each brand's e-mail domains: after the accounts and brands they name.
  brandAdministrators,
  brandDomains,
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
  // A connection's refused requests and a provider's failed sign-ins: logs for their administrators, not data.
  scimErrors,
  ssoFailures,
];

const BATCH_ROWS = 500;

type Header = { namecard: "backup"; format: number; createdAt: string; engine: string; migrations: string[] };
type TableLine = { table: string; rows: Record<string, unknown>[] };
type FileLine = { file: string; contentType: string; data: string };
export type ArchiveLine = Header | TableLine | FileLine | { end: BackupSummary } | { checksum: Checksum };

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
 * An archive's lines on their way into `gzip`, each added to the checksum as
 * written; `end` closes the archive with the checksum line. `secret` is the
 * installation's AUTH_SECRET, which keys the HMAC.
 */
export function archiveWriter(secret: string) {
  const gzip = createGzip();
  const checksum = new ArchiveChecksum(secret);
  return {
    gzip,
    write(line: Exclude<ArchiveLine, { checksum: Checksum }>): Promise<void> {
      const text = `${JSON.stringify(line)}\n`;
      checksum.update(text);
      return writeTo(gzip, text);
    },
    end() {
      gzip.end(`${JSON.stringify({ checksum: checksum.digest() })}\n`);
    },
  };
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
  const archive = archiveWriter(env.AUTH_SECRET);
  const { gzip } = archive;
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

  await archive.write({
    namecard: "backup",
    format: ARCHIVE_FORMAT,
    createdAt: new Date().toISOString(),
    engine,
    migrations: knownMigrations(),
  });
  const files = new Set<string>();
  for (const table of BACKUP_TABLES) summary.tables[nameOf(table)] = 0;
  await readSnapshot(db, async (table, rows) => {
    summary.tables[table] = (summary.tables[table] ?? 0) + rows.length;
    for (const row of rows) for (const key of filesOf(table, row)) if (typeof key === "string" && key) files.add(key);
    await archive.write({ table, rows });
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
    await archive.write({
      file: key,
      contentType: object.contentType,
      data: Buffer.from(object.body).toString("base64"),
    });
  }
  await archive.write({ end: summary });
  archive.end();
  await done;
  return summary;
}

/** Why a restore refused, as the one `[restore] …` line the operator reads. */
export class RestoreError extends Error {
  override name = "RestoreError";
}

/** The flag that restores an archive this installation cannot prove it made (docs/decisions/012-backups.md). */
export const TRUST_FLAG = "--trust-archive";

export type RestoreOptions = {
  /** Restore an archive whose HMAC does not match, or one of format 1, which has no checksum. */
  trustArchive?: boolean;
  /** The AUTH_SECRET the HMAC is checked with: this installation's. */
  secret?: string;
};

/** A file that cannot be opened or unzipped, said in one line. */
function unreadable(file: string, error: unknown): Error {
  const { code, message } = error as NodeJS.ErrnoException;
  const nothing = "Nothing was restored.";
  switch (code) {
    case "ENOENT":
      return new RestoreError(`[restore] ${file} does not exist. ${nothing}`);
    case "EISDIR":
      return new RestoreError(`[restore] ${file} is a folder: name the archive file itself. ${nothing}`);
    case "EACCES":
    case "EPERM":
      return new RestoreError(`[restore] ${file} cannot be read by this user (${code}). ${nothing}`);
    // zlib's word for compressed data that stops before its end.
    case "Z_BUF_ERROR":
      return new RestoreError(
        `[restore] ${file} is cut short: its compressed data ends early (a copy that did not finish?). ${nothing}`,
      );
  }
  if (code?.startsWith("Z_")) {
    return new RestoreError(
      `[restore] ${file} is damaged: its gzip compression does not read (${message}). ${nothing}`,
    );
  }
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * An archive's text lines as written, without their newlines. The text is
 * decoded across the gunzip chunks as one stream: a character whose bytes
 * fall on both sides of a chunk's end comes out whole (decoding each chunk
 * alone turned "Inês" into "In��s"). A file that cannot be read or unzipped
 * is a `RestoreError`.
 */
async function* archiveText(file: string): AsyncGenerator<string> {
  const source = fs.createReadStream(file);
  const gunzip = createGunzip();
  // `pipe` passes on data, not errors: a file that cannot be opened ends the reading too.
  source.on("error", (error) => gunzip.destroy(error));
  const lines = createInterface({ input: source.pipe(gunzip), crlfDelay: Infinity });
  try {
    for await (const line of lines) yield line;
  } catch (error) {
    throw unreadable(file, error);
  } finally {
    // Left early (a fault found in a line): what gunzip still holds may fail too, and nobody reads it.
    gunzip.on("error", () => {});
    lines.close();
    gunzip.destroy();
    source.destroy();
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Whether a parsed line has the shape of one of the archive's lines. */
function isArchiveLine(value: Record<string, unknown>): value is ArchiveLine {
  if ("namecard" in value) {
    return (
      value.namecard === "backup" &&
      Number.isInteger(value.format) &&
      (value.format as number) >= UNCHECKED_FORMAT &&
      Array.isArray(value.migrations) &&
      value.migrations.every((tag) => typeof tag === "string")
    );
  }
  if ("table" in value)
    return typeof value.table === "string" && Array.isArray(value.rows) && value.rows.every(isObject);
  if ("file" in value) {
    return typeof value.file === "string" && typeof value.contentType === "string" && typeof value.data === "string";
  }
  if ("end" in value) {
    const end = value.end;
    return (
      isObject(end) &&
      isObject(end.tables) &&
      Object.values(end.tables).every((count) => typeof count === "number") &&
      typeof end.files === "number" &&
      Array.isArray(end.missingFiles)
    );
  }
  if ("checksum" in value) return isObject(value.checksum);
  return false;
}

function parsedLine(file: string, text: string, number: number): ArchiveLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new RestoreError(`[restore] ${file} is damaged: line ${number} is not valid JSON. Nothing was restored.`);
  }
  if (!isObject(value) || !isArchiveLine(value)) {
    throw new RestoreError(
      `[restore] ${file} is damaged: line ${number} is not a line of a Namecard backup. Nothing was restored.`,
    );
  }
  return value;
}

/** Reads an archive's lines, parsed, without checking it: what a restore reads, and how. */
export async function* readArchiveLines(file: string): AsyncGenerator<ArchiveLine> {
  let number = 0;
  for await (const text of archiveText(file)) {
    number++;
    if (text.trim()) yield parsedLine(file, text, number);
  }
}

type Scanned = {
  header: Header;
  end: BackupSummary;
  /** The SHA-256 of the lines as read: the second reading must find the same. */
  sha256: string;
  /** Whether its HMAC shows this AUTH_SECRET made it. */
  madeHere: boolean;
  warnings: string[];
};

/**
 * Reads an archive through and checks everything it can before a restore
 * writes anything: that it unzips to the end, that every line is one of an
 * archive's, its checksum and HMAC, its format and migrations, and that it
 * holds the rows and files its end line counts. Hands the rows and files to
 * `take` as they come, if given. Throws a `RestoreError` for the first fault.
 */
async function scanArchive(
  file: string,
  options: RestoreOptions,
  take?: (line: TableLine | FileLine) => Promise<void>,
): Promise<Scanned> {
  const nothing = "Nothing was restored.";
  const secret = options.secret ?? env.AUTH_SECRET;
  const checksum = new ArchiveChecksum(secret);
  const rows: Record<string, number> = {};
  let files = 0;
  let number = 0;
  let header: Header | undefined;
  let end: BackupSummary | undefined;
  let stored: Record<string, unknown> | undefined;
  for await (const text of archiveText(file)) {
    number++;
    if (stored) {
      throw new RestoreError(
        `[restore] ${file} is damaged: it goes on after its checksum (line ${number}). ${nothing}`,
      );
    }
    const line = text.trim() ? parsedLine(file, text, number) : null;
    if (line && "checksum" in line) {
      stored = line.checksum;
      continue;
    }
    checksum.update(`${text}\n`);
    if (!line) continue;
    if (!header) {
      if (!("namecard" in line)) throw new RestoreError(`[restore] ${file} is not a Namecard backup. ${nothing}`);
      header = line;
      // A later format may be laid out otherwise: said before reading further.
      if (header.format > ARCHIVE_FORMAT) {
        throw new RestoreError(
          `[restore] ${file} is archive format ${header.format}, made by a newer Namecard; this one reads formats ${UNCHECKED_FORMAT} and ${ARCHIVE_FORMAT}: upgrade this installation first. ${nothing}`,
        );
      }
      continue;
    }
    if ("namecard" in line || end) {
      throw new RestoreError(`[restore] ${file} is damaged: line ${number} is out of place. ${nothing}`);
    }
    if ("table" in line) {
      rows[line.table] = (rows[line.table] ?? 0) + line.rows.length;
      await take?.(line);
    } else if ("file" in line) {
      files++;
      await take?.(line);
    } else if ("end" in line) {
      end = line.end;
    }
  }
  if (number === 0) throw new RestoreError(`[restore] ${file} is empty. ${nothing}`);
  if (!header) throw new RestoreError(`[restore] ${file} is not a Namecard backup. ${nothing}`);
  const computed = checksum.digest();
  const warnings: string[] = [];
  const madeHere = !!stored && sameDigest(computed.hmac, stored.hmac);
  if (stored) {
    if (!sameDigest(computed.sha256, stored.sha256)) {
      throw new RestoreError(
        `[restore] ${file} was changed or damaged after it was made: its content does not match its SHA-256 checksum. ${nothing}`,
      );
    }
    if (!madeHere) {
      if (!options.trustArchive) {
        throw new RestoreError(
          `[restore] ${file} is intact, but this installation cannot tell who made it: its HMAC does not match this AUTH_SECRET (made under another AUTH_SECRET, or changed by someone who recomputed its checksum). Restore it with the AUTH_SECRET of the installation that made it (set AUTH_SECRET, or copy that installation's DATA_DIR/auth-secret file into this DATA_DIR), or, if you trust this file, with npm run restore -- ${TRUST_FLAG} ${file} (single sign-on and wallet secrets must then be entered again). ${nothing}`,
        );
      }
      warnings.push(
        `[restore] ${file} was not made under this AUTH_SECRET (its HMAC does not match): restored because of ${TRUST_FLAG}.`,
      );
    }
  } else if (header.format >= ARCHIVE_FORMAT) {
    throw new RestoreError(`[restore] ${file} is cut short: its checksum line is missing. ${nothing}`);
  } else if (!options.trustArchive) {
    throw new RestoreError(
      `[restore] ${file} is archive format ${header.format}, made before archives carried a checksum: nothing shows that it is whole or who made it. If you trust this file, restore it with npm run restore -- ${TRUST_FLAG} ${file}. ${nothing}`,
    );
  } else {
    warnings.push(
      `[restore] ${file} is archive format ${header.format}, without a checksum: restored unchecked because of ${TRUST_FLAG}.`,
    );
  }
  if (!end) throw new RestoreError(`[restore] ${file} is cut short: it has no end line. ${nothing}`);
  const known = knownMigrations();
  const newer = header.migrations.filter((tag) => !known.includes(tag));
  if (newer.length) {
    throw new RestoreError(
      `[restore] ${file} was made by a newer Namecard (migrations ${newer.join(", ")}): upgrade this installation first. ${nothing}`,
    );
  }
  if (files !== end.files) {
    throw new RestoreError(`[restore] ${file} lists ${end.files} files but holds ${files}. ${nothing}`);
  }
  const leftOut = new Set(NOT_BACKED_UP.map(nameOf));
  for (const [name, count] of Object.entries(end.tables)) {
    // An archive made before a table was left out still lists it: its rows are not restored.
    if (leftOut.has(name)) continue;
    if ((rows[name] ?? 0) !== count) {
      throw new RestoreError(
        `[restore] ${file} lists ${count} rows of table ${name} but holds ${rows[name] ?? 0}. ${nothing}`,
      );
    }
  }
  return { header, end, sha256: computed.sha256, madeHere, warnings };
}

/**
 * Checks an archive without restoring it: what `restoreBackup` checks before
 * it writes anything. Says whether this AUTH_SECRET made it, and the warnings
 * a trusted archive brings.
 */
export async function checkArchive(
  file: string,
  options: RestoreOptions = {},
): Promise<{ madeHere: boolean; warnings: string[] }> {
  const { madeHere, warnings } = await scanArchive(file, options);
  return { madeHere, warnings };
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

export type Restored = BackupSummary & {
  /** What the operator should read: an archive restored on trust. */
  warnings: string[];
};

/**
 * Brings an archive back into an empty, migrated database and its store. The
 * archive is read through and checked first (`scanArchive`), with nothing
 * written; then read again, its files written to the store as they come and
 * its rows kept, and, if it still reads the same, every row goes in in one
 * transaction.
 */
export async function restoreBackup(
  db: Database,
  storage: Storage,
  file: string,
  options: RestoreOptions = {},
): Promise<Restored> {
  await assertEmpty(db);
  const checked = await scanArchive(file, options);
  const restored = new Set(BACKUP_TABLES.map(nameOf));
  const rows = new Map<string, Record<string, unknown>[]>();
  const again = await scanArchive(file, options, async (line) => {
    if ("file" in line) {
      await storage.put(line.file, Buffer.from(line.data, "base64"), line.contentType);
    } else if (restored.has(line.table)) {
      const list = rows.get(line.table) ?? [];
      list.push(...line.rows);
      rows.set(line.table, list);
    }
  });
  if (again.sha256 !== checked.sha256) {
    throw new RestoreError(
      `[restore] ${file} changed while it was being restored: no row was restored (files already written stay in the store).`,
    );
  }

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
  return {
    tables: counts,
    files: checked.end.files,
    missingFiles: checked.end.missingFiles,
    warnings: checked.warnings,
  };
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
