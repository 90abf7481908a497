// Removes from node_modules every package the production dependencies do not reach, as the
// container image's build runs it after `npm ci --omit=dev`. npm keeps a development tool that
// a production dependency names as an optional peer (better-auth names vitest, drizzle-kit and
// their own tools): the server never loads them, and a runtime image holds no build tools.
//
// Reached: the project's dependencies and optional dependencies, and from each package its
// dependencies, optional dependencies and required peers, resolved as Node resolves them
// (the nearest node_modules upward). Usage: node scripts/prune-to-production.js [--dry-run]
import fs from "node:fs";
import path from "node:path";

const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8"));
const packages = lock.packages;

/** Where `name`, asked for by the package at `from`, is installed: the nearest node_modules upward. */
function resolve(from, name) {
  let base = from;
  for (;;) {
    const candidate = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[candidate] && fs.existsSync(candidate)) return candidate;
    if (!base) return null;
    const index = base.lastIndexOf("/node_modules/");
    base = index === -1 ? "" : base.slice(0, index);
  }
}

function needs(entry) {
  const optionalPeers = entry.peerDependenciesMeta ?? {};
  const peers = Object.keys(entry.peerDependencies ?? {}).filter((name) => !optionalPeers[name]?.optional);
  return [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.optionalDependencies ?? {}), ...peers];
}

const reached = new Set();
const queue = [""];
while (queue.length) {
  const at = queue.pop();
  for (const name of needs(packages[at])) {
    const found = resolve(at, name);
    if (found && !reached.has(found)) {
      reached.add(found);
      queue.push(found);
    }
  }
}

const dryRun = process.argv.includes("--dry-run");
let removed = 0;
// Shortest paths first: a removed package takes its nested node_modules with it.
for (const key of Object.keys(packages).sort((a, b) => a.length - b.length)) {
  if (!key.startsWith("node_modules/") || reached.has(key) || !fs.existsSync(key)) continue;
  if (!dryRun) fs.rmSync(key, { recursive: true, force: true });
  removed += 1;
}
// Scope folders left empty, and the commands of removed packages.
if (!dryRun) {
  for (const entry of fs.readdirSync("node_modules")) {
    const folder = path.join("node_modules", entry);
    if (entry.startsWith("@") && fs.readdirSync(folder).length === 0) fs.rmdirSync(folder);
  }
  const bin = path.join("node_modules", ".bin");
  for (const entry of fs.existsSync(bin) ? fs.readdirSync(bin) : []) {
    if (!fs.existsSync(path.join(bin, entry))) fs.rmSync(path.join(bin, entry));
  }
}
console.info(`[build] ${removed} packages no production dependency needs were ${dryRun ? "found" : "removed"}`);
