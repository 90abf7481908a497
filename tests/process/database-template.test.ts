import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPglite, rowsOf } from "~/.server/platform/db/client";
import { startFromTemplate, templateFor } from "~/.server/platform/db/pglite-template";
import { ON_POSTGRES } from "../support/process-suite";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "namecard-template-"));

beforeAll(() => {
  // `npm run build` makes it; a run of this file alone makes it here (at once when it exists).
  const made = spawnSync(process.execPath, ["scripts/database-template.js"], { encoding: "utf8" });
  expect(made.status, made.stderr).toBe(0);
}, 120_000);

afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe.skipIf(ON_POSTGRES)("a new embedded database", () => {
  it("comes from a template any user can read, so a service's own user can copy what root built", () => {
    const closed: string[] = [];
    (function walk(target: string) {
      const stat = fs.statSync(target);
      if ((stat.mode & 0o004) === 0 || (stat.isDirectory() && (stat.mode & 0o001) === 0)) closed.push(target);
      if (stat.isDirectory()) for (const entry of fs.readdirSync(target)) walk(path.join(target, entry));
    })(templateFor());
    expect(closed).toEqual([]);
  });

  it("starts as a copy of the build's empty database, and takes the migrations and writes", async () => {
    const dataDir = path.join(scratch, "fresh", "db");
    expect(startFromTemplate(dataDir)).toBe(true);
    expect(fs.readFileSync(path.join(dataDir, "PG_VERSION"), "utf8")).toBe(
      fs.readFileSync(path.join(templateFor(), "PG_VERSION"), "utf8"),
    );

    const handle = await openPglite({ dataDir });
    try {
      await handle.migrate();
      await handle.db.execute(sql`insert into brands (name) values ('Northwind')`);
      const [brand] = rowsOf(await handle.db.execute(sql`select name from brands`)) as { name: string }[];
      expect(brand?.name).toBe("Northwind");
      // Shared buffers are this process's memory: a small share, not PostgreSQL's default 128 MB.
      const [setting] = rowsOf(await handle.db.execute(sql`show shared_buffers`)) as { shared_buffers: string }[];
      expect(setting?.shared_buffers).toBe("16MB");
    } finally {
      await handle.close();
    }
  }, 120_000);

  it("clears a copy that a stop interrupted, and leaves a directory that holds a database as it is", () => {
    const parent = path.join(scratch, "interrupted");
    const dataDir = path.join(parent, "db");
    const leftover = path.join(parent, "db.new-4242");
    fs.mkdirSync(path.join(leftover, "base"), { recursive: true });
    fs.writeFileSync(path.join(leftover, "base", "half"), "half a copy");

    expect(startFromTemplate(dataDir)).toBe(true);
    expect(fs.existsSync(leftover)).toBe(false);
    expect(fs.readdirSync(parent)).toEqual(["db"]);

    const marker = path.join(dataDir, "written-by-the-database");
    fs.writeFileSync(marker, "kept");
    expect(startFromTemplate(dataDir)).toBe(false);
    expect(fs.readFileSync(marker, "utf8")).toBe("kept");
  });

  it("is not laid over a directory with files of its own", () => {
    const dataDir = path.join(scratch, "occupied", "db");
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(path.join(dataDir, "notes.txt"), "an operator's file");
    expect(startFromTemplate(dataDir)).toBe(false);
    expect(fs.readdirSync(dataDir)).toEqual(["notes.txt"]);
  });
});
