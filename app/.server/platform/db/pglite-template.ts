import fs from "node:fs";
import path from "node:path";
import { tightenTree } from "../private-data";

/**
 * A new embedded database starts as a copy of an empty one made at build time
 * (scripts/database-template.js), not by running initdb in the server: initdb
 * in WebAssembly peaks near 800 MB of memory, which a small server does not
 * have. See docs/decisions/022-memory-on-a-small-server.md.
 */
const TEMPLATES_DIR = path.resolve(process.cwd(), "build/database-template");

/** The template made for the installed PGlite, whose files only that version is sure to read. */
export function templateFor(version = pgliteVersion()): string {
  return path.join(TEMPLATES_DIR, `pglite-${version}`);
}

function pgliteVersion(): string {
  const manifest = path.resolve(process.cwd(), "node_modules/@electric-sql/pglite/package.json");
  return (JSON.parse(fs.readFileSync(manifest, "utf8")) as { version: string }).version;
}

/**
 * Gives a data directory that holds no database yet a copy of the template,
 * when there is one for this PGlite; otherwise leaves it to PGlite to create.
 * The copy is made beside the directory and renamed into place, so a stop
 * half-way leaves no half-made database behind. The caller holds the data
 * directory's lock.
 */
export function startFromTemplate(dataDir: string): boolean {
  if (fs.existsSync(path.join(dataDir, "PG_VERSION"))) return false;
  if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) return false;
  let template: string;
  try {
    template = templateFor();
  } catch {
    return false;
  }
  if (!fs.existsSync(path.join(template, "PG_VERSION"))) return false;

  const parent = path.dirname(dataDir);
  const copyPrefix = `${path.basename(dataDir)}.new-`;
  fs.mkdirSync(parent, { recursive: true });
  for (const leftover of fs.readdirSync(parent)) {
    if (leftover.startsWith(copyPrefix)) fs.rmSync(path.join(parent, leftover), { recursive: true, force: true });
  }
  const copy = path.join(parent, `${copyPrefix}${process.pid}`);
  fs.cpSync(template, copy, { recursive: true });
  // The template's files keep the build's modes: the copy, which will hold live data, is this user's alone.
  tightenTree(copy);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.renameSync(copy, dataDir);
  return true;
}
