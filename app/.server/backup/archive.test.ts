import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { is } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import * as schema from "../db/schema";
import { BACKUP_TABLES, NOT_BACKED_UP, primaryKeyOf, readArchiveLines } from "./archive";

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
      { namecard: "backup", format: 1 },
      ...rows.map((row) => ({ table: "profiles", rows: [row] })),
      { end: { tables: { profiles: rows.length } } },
    ];
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "namecard-archive-")), "backup.ndjson.gz");
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
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "namecard-archive-")), "cut.ndjson.gz");
    fs.writeFileSync(file, whole.subarray(0, Math.floor(whole.length / 2)));
    const read = async () => {
      for await (const _ of readArchiveLines(file)) {
        // read to the end
      }
    };
    await expect(read()).rejects.toThrow(/unexpected end of file/);
  });
});
