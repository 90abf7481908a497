import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { finished } from "node:stream/promises";
import { gunzipSync, gzipSync } from "node:zlib";
import { is } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { afterAll, describe, expect, it } from "vitest";
import * as schema from "../platform/db/schema";
import {
  type ArchiveLine,
  archiveWriter,
  BACKUP_TABLES,
  checkArchive,
  NOT_BACKED_UP,
  primaryKeyOf,
  RestoreError,
  readArchiveLines,
} from "./archive";

/** The temporary folders this file made, removed once it is done. */
const made: string[] = [];
function madeDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

const nameOf = (table: PgTable) => getTableConfig(table).name;

describe("the backup archive", () => {
  it("keeps every table, or leaves it out on purpose: a new table cannot be forgotten", () => {
    const tables = (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTable));
    const chosen = [...BACKUP_TABLES, ...NOT_BACKED_UP].map(nameOf);
    expect(tables.map(nameOf).sort()).toEqual([...chosen].sort());
    expect(new Set(chosen).size).toBe(chosen.length);
  });

  it("reads every table in the order of its primary key, a composite one included", () => {
    for (const table of BACKUP_TABLES) expect(primaryKeyOf(table), nameOf(table)).not.toEqual([]);
    expect(primaryKeyOf(schema.ssoIdentities)).toEqual(["issuer", "subject"]);
  });

  it("writes parents before the tables that refer to them", () => {
    const order = BACKUP_TABLES.map(nameOf);
    for (const [index, table] of BACKUP_TABLES.entries()) {
      for (const key of getTableConfig(table).foreignKeys) {
        const parent = getTableConfig(key.reference().foreignTable).name;
        if (parent !== order[index]) expect(order.indexOf(parent), `${order[index]} → ${parent}`).toBeLessThan(index);
      }
    }
  });

  it("reads back every name whole, whatever byte of a character a chunk of the archive ends on", async () => {
    // Runs of two-, three- and four-byte characters, shifted by one byte per row, over many 16 KiB chunks:
    // nearly every byte is inside a character.
    const names = ["Inês Schröder", "Çağla Öztürk", "王芳", "Ελένη", "Zoë 🙂 Łukasz"];
    const rows = Array.from({ length: 3_000 }, (_, index) => ({
      id: index,
      first_name: `${"x".repeat(index % 4)}${names[index % names.length]}`,
      bio: ["ê".repeat(60), "王".repeat(40), "🙂".repeat(30)][index % 3],
    }));
    const lines = [
      { namecard: "backup", format: 1, createdAt: "2026-01-01T00:00:00.000Z", engine: "pglite", migrations: [] },
      ...rows.map((row) => ({ table: "profiles", rows: [row] })),
      { end: { tables: { profiles: rows.length }, files: 0, missingFiles: [] } },
    ];
    const file = path.join(madeDir("namecard-archive-"), "backup.ndjson.gz");
    const text = lines.map((line) => `${JSON.stringify(line)}\n`).join("");
    expect(Buffer.byteLength(text)).toBeGreaterThan(10 * 16 * 1024);
    fs.writeFileSync(file, gzipSync(text));

    const read = [];
    for await (const line of readArchiveLines(file)) read.push(line);
    expect(read).toEqual(lines);
  });

  it("fails on an archive cut short instead of reading part of it", async () => {
    const lines = Array.from(
      { length: 2_000 },
      (_, index) => `${JSON.stringify({ table: "profiles", rows: [{ id: index, bio: "Ärzte ".repeat(20) }] })}\n`,
    );
    const whole = gzipSync(lines.join(""));
    const file = path.join(madeDir("namecard-archive-"), "cut.ndjson.gz");
    fs.writeFileSync(file, whole.subarray(0, Math.floor(whole.length / 2)));
    const read = async () => {
      for await (const _ of readArchiveLines(file)) {
        // read to the end
      }
    };
    await expect(read()).rejects.toThrow(RestoreError);
    await expect(read()).rejects.toThrow(/is cut short/);
  });
});

const SECRET = "archive-test-secret-archive-test-secret-01";
const OTHER_SECRET = "another-installation-secret-another-one-02";

const scratch = () => madeDir("namecard-archive-");

/** The lines of a small archive: a header, two people, a photo and the end line. */
function archiveContent(): Exclude<ArchiveLine, { checksum: unknown }>[] {
  const people = [
    { id: "a", first_name: "Inês", last_name: "Schröder" },
    { id: "b", first_name: "Zoë", last_name: "Łukasz" },
  ];
  return [
    { namecard: "backup", format: 2, createdAt: "2026-01-01T00:00:00.000Z", engine: "pglite", migrations: [] },
    { table: "users", rows: people },
    { table: "profiles", rows: people.map((person) => ({ ...person, bio: "Kept ".repeat(400) })) },
    { file: "profiles/a.webp", contentType: "image/webp", data: Buffer.from("a photo".repeat(300)).toString("base64") },
    { end: { tables: { users: 2, profiles: 2 }, files: 1, missingFiles: [] } },
  ];
}

/** Writes an archive as a backup does, under `secret`: its path. */
async function writtenArchive(secret = SECRET, lines = archiveContent()): Promise<string> {
  const file = path.join(scratch(), "backup.ndjson.gz");
  const archive = archiveWriter(secret);
  const output = fs.createWriteStream(file);
  archive.gzip.pipe(output);
  for (const line of lines) await archive.write(line);
  archive.end();
  await finished(output);
  return file;
}

/** Another file with the archive's text changed by `edit` and compressed again: a valid gzip. */
function edited(file: string, edit: (text: string) => string): string {
  const copy = path.join(scratch(), "edited.ndjson.gz");
  fs.writeFileSync(copy, gzipSync(edit(gunzipSync(fs.readFileSync(file)).toString("utf8"))));
  return copy;
}

/** Replaces the checksum line's SHA-256 with the one of the lines now before it, as anyone could. */
function withChecksumRecomputed(text: string): string {
  const lines = text.split("\n");
  const last = lines.findIndex((line) => line.startsWith('{"checksum"'));
  const content = lines
    .slice(0, last)
    .map((line) => `${line}\n`)
    .join("");
  const stored = JSON.parse(lines[last] as string) as { checksum: { sha256: string; hmac: string } };
  stored.checksum.sha256 = createHash("sha256").update(content).digest("hex");
  lines[last] = JSON.stringify(stored);
  return lines.join("\n");
}

/** The one `[restore]` line a refused archive gets. */
async function refusal(file: string, options: Parameters<typeof checkArchive>[1] = {}): Promise<string> {
  const error = await checkArchive(file, { secret: SECRET, ...options }).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error, `${file} was accepted`).toBeInstanceOf(RestoreError);
  const message = (error as RestoreError).message;
  expect(message).toMatch(/^\[restore\] /);
  expect(message).not.toContain("\n");
  return message;
}

describe("an archive that proves its integrity", () => {
  it("restores an archive this installation made, with no warning", async () => {
    const file = await writtenArchive();
    expect(await checkArchive(file, { secret: SECRET })).toEqual({ madeHere: true, warnings: [] });
    const lines = [];
    for await (const line of readArchiveLines(file)) lines.push(line);
    expect(lines.slice(0, -1)).toEqual(archiveContent());
    expect(lines.at(-1)).toEqual({
      checksum: { sha256: expect.stringMatching(/^[0-9a-f]{64}$/), hmac: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
  });

  it("refuses an archive with any byte of its compressed data flipped, saying it is damaged", async () => {
    const file = await writtenArchive();
    const bytes = fs.readFileSync(file);
    // From the end of gzip's fixed header (its time and system bytes are not checked by anyone, nor needed)
    // through the data and its trailing CRC and length.
    const GZIP_HEADER_BYTES = 10;
    const step = Math.max(1, Math.floor((bytes.length - GZIP_HEADER_BYTES) / 40));
    for (let at = GZIP_HEADER_BYTES; at < bytes.length; at += step) {
      const flipped = Buffer.from(bytes);
      flipped[at] = (flipped[at] as number) ^ 0xff;
      const copy = path.join(scratch(), `flipped-${at}.ndjson.gz`);
      fs.writeFileSync(copy, flipped);
      expect(await refusal(copy), `byte ${at}`).toMatch(/is damaged|is cut short|was changed or damaged/);
    }
  });

  it("refuses an archive cut short anywhere, saying so", async () => {
    const file = await writtenArchive();
    const bytes = fs.readFileSync(file);
    for (const length of [1, 20, Math.floor(bytes.length / 2), bytes.length - 9, bytes.length - 1]) {
      const cut = path.join(scratch(), `cut-${length}.ndjson.gz`);
      fs.writeFileSync(cut, bytes.subarray(0, length));
      expect(await refusal(cut), `${length} bytes`).toMatch(/is cut short/);
    }
    // Whole lines missing, the gzip itself complete.
    const withoutChecksum = edited(file, (text) => text.slice(0, text.indexOf('{"checksum"')));
    expect(await refusal(withoutChecksum)).toMatch(/is cut short: its checksum line is missing/);
  });

  it("refuses an archive with one name changed in a valid gzip: it does not match its checksum", async () => {
    const file = await writtenArchive();
    const copy = edited(file, (text) => text.replace("Zoë", "Zoe"));
    expect(await refusal(copy)).toMatch(/was changed or damaged after it was made: .*SHA-256 checksum/);
  });

  it("refuses an archive changed with its checksum recomputed: the HMAC shows it was not made here", async () => {
    const file = await writtenArchive();
    const copy = edited(file, (text) => withChecksumRecomputed(text.replace("Zoë", "Mallory")));
    expect(await refusal(copy)).toMatch(
      /is intact, but this installation cannot tell who made it: its HMAC does not match .*--trust-archive/,
    );
  });

  it("refuses an archive made under another AUTH_SECRET unless the operator trusts it, and then warns", async () => {
    const file = await writtenArchive(OTHER_SECRET);
    expect(await refusal(file)).toMatch(/HMAC does not match this AUTH_SECRET.*AUTH_SECRET of the installation/);
    const trusted = await checkArchive(file, { secret: SECRET, trustArchive: true });
    expect(trusted.warnings).toEqual([expect.stringMatching(/^\[restore\] .*not made under this AUTH_SECRET/)]);
    // Trust covers who made it, never damage.
    const damaged = edited(file, (text) => text.replace("Zoë", "Zoe"));
    expect(await refusal(damaged, { trustArchive: true })).toMatch(/SHA-256 checksum/);
  });

  it("refuses an archive of format 1, which has no checksum, unless the operator trusts it", async () => {
    const lines = archiveContent().map((line) => ("namecard" in line ? { ...line, format: 1 } : line));
    const plain = path.join(scratch(), "format-1.ndjson.gz");
    fs.writeFileSync(plain, gzipSync(lines.map((line) => `${JSON.stringify(line)}\n`).join("")));
    expect(await refusal(plain)).toMatch(
      /is archive format 1, made before archives carried a checksum.*--trust-archive/,
    );
    const trusted = await checkArchive(plain, { secret: SECRET, trustArchive: true });
    expect(trusted.warnings).toEqual([expect.stringMatching(/^\[restore\] .*format 1, without a checksum/)]);
  });

  it("names what is wrong with a file that is no archive at all", async () => {
    const dir = scratch();
    expect(await refusal(path.join(dir, "missing.ndjson.gz"))).toMatch(/does not exist/);
    expect(await refusal(dir)).toMatch(/is a folder/);
    const plain = path.join(dir, "plain.ndjson");
    fs.writeFileSync(plain, `${JSON.stringify({ namecard: "backup", format: 2 })}\n`);
    expect(await refusal(plain)).toMatch(/is damaged: its gzip compression does not read/);
    const empty = path.join(dir, "empty.ndjson.gz");
    fs.writeFileSync(empty, gzipSync(""));
    expect(await refusal(empty)).toMatch(/is empty/);
    const other = path.join(dir, "other.json.gz");
    fs.writeFileSync(other, gzipSync('{"hello":"world"}\n'));
    expect(await refusal(other)).toMatch(/is damaged: line 1 is not a line of a Namecard backup/);
  });

  it("names the line of an archive that is not JSON, or that goes on after its checksum", async () => {
    const file = await writtenArchive();
    const broken = edited(file, (text) => text.replace('{"table":"profiles"', '{"table":"profiles'));
    expect(await refusal(broken)).toMatch(/is damaged: line 3 is not valid JSON/);
    const longer = edited(file, (text) => `${text}${JSON.stringify({ table: "users", rows: [{ id: "c" }] })}\n`);
    expect(await refusal(longer)).toMatch(/is damaged: it goes on after its checksum \(line 7\)/);
  });

  it("asks for an upgrade for an archive of a newer format", async () => {
    const lines = archiveContent().map((line) => ("namecard" in line ? { ...line, format: 3 } : line));
    const file = await writtenArchive(SECRET, lines);
    expect(await refusal(file)).toMatch(/archive format 3, made by a newer Namecard.*upgrade this installation first/);
  });
});
