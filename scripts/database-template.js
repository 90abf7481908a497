// Makes the empty embedded database that a new data directory starts from
// (build/database-template/pglite-<version>), so the server never runs initdb,
// whose memory peak a small server does not have. Run by `npm run build`.
// See docs/decisions/022-memory-on-a-small-server.md.
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";

const { version } = JSON.parse(fs.readFileSync("node_modules/@electric-sql/pglite/package.json", "utf8"));
const target = path.resolve("build/database-template", `pglite-${version}`);

if (fs.existsSync(path.join(target, "PG_VERSION"))) process.exit(0);

// Made beside its place and renamed into it, so an interrupted build leaves no half-made template.
const draft = `${target}.draft-${process.pid}`;
fs.rmSync(draft, { recursive: true, force: true });
fs.mkdirSync(path.dirname(draft), { recursive: true });
const database = await PGlite.create({ dataDir: draft });
await database.close();
// An empty database, readable by whichever user runs the server (a service's own user, a
// container's), which copies it into its data directory and makes the copy private.
(function readableByAll(target) {
  const stat = fs.statSync(target);
  fs.chmodSync(target, stat.isDirectory() ? 0o755 : 0o644);
  if (stat.isDirectory()) for (const entry of fs.readdirSync(target)) readableByAll(path.join(target, entry));
})(draft);
fs.rmSync(target, { recursive: true, force: true });
fs.renameSync(draft, target);
console.info(`[build] empty database template made in ${path.relative(process.cwd(), target)}`);
