// `npm start`: builds when the build is missing or older than the sources,
// then runs the server (which applies migrations before it listens), in
// production mode unless NODE_ENV says otherwise (`npm run dev` is development).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

process.env.NODE_ENV ||= "production";

const BUILD_ENTRY = "build/server/index.js";
const SOURCES = [
  "app",
  "server",
  "public",
  "package.json",
  "vite.config.ts",
  "vite.database-thread.config.ts",
  "react-router.config.ts",
];

function newestMtime(target) {
  let stat;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) {
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

function buildIsStale() {
  let built;
  try {
    built = fs.statSync(BUILD_ENTRY).mtimeMs;
  } catch {
    return true;
  }
  return SOURCES.some((source) => newestMtime(source) > built);
}

// NAMECARD_SKIP_BUILD=1 serves the build as it is: the process tests start `npm start` beside
// other servers of the same build, which a rebuild would pull from under them.
if (process.env.NAMECARD_SKIP_BUILD !== "1" && buildIsStale()) {
  console.info("[start] building Namecard…");
  const result = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
} else {
  // A build from before the database template existed still gets one (it exits at once when present).
  const result = spawnSync(process.execPath, ["scripts/database-template.js"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

await import("../server.js");
