// The servers the browser tests run against: a fresh embedded database with
// the demo data and the test accounts (tests/e2e/people.ts), behind one
// trusted proxy hop so each test chooses its client address with
// X-Forwarded-For (and so has its own rate-limit bucket).
//
// One server per instance of tests/e2e/instances.js, `--instance=NAME` (main by default).
//
// `node tests/e2e/serve.js --prepare` only makes the data of every instance and exits,
// so that `npm run test:all` can do it while other tests run; a server started
// afterwards with NAMECARD_E2E_PREPARED=1 uses that data as it is.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { INSTANCES, urlOf } from "./instances.js";

const prepareOnly = process.argv.includes("--prepare");
const prepared = process.env.NAMECARD_E2E_PREPARED === "1";
const name = process.argv.find((arg) => arg.startsWith("--instance="))?.slice("--instance=".length) ?? "main";
const instance = INSTANCES[name];
if (!instance) {
  console.error(`[e2e] no instance named ${name}: use one of ${Object.keys(INSTANCES).join(", ")}`);
  process.exit(1);
}

const baseEnv = {
  NODE_ENV: "production",
  ADMIN_EMAILS: "admin@example.com",
  // A hop count, not `true`: only the address our own proxy (the test) adds is believed.
  TRUST_PROXY: "1",
  DATABASE_URL: "",
  SMTP_URL: "",
};

/** The environment of one instance's server (and of its seed). */
function envOf(target) {
  return { ...baseEnv, PORT: String(target.port), PUBLIC_URL: urlOf(target), DATA_DIR: target.dataDir };
}

function seed(target) {
  fs.rmSync(target.dataDir, { recursive: true, force: true });
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/e2e-seed.ts"], {
    stdio: "inherit",
    env: { ...process.env, ...envOf(target) },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (prepareOnly) {
  // Seeded once; the other instances start from a copy (no server has it open yet).
  seed(INSTANCES.main);
  for (const other of Object.values(INSTANCES)) {
    if (other === INSTANCES.main) continue;
    fs.rmSync(other.dataDir, { recursive: true, force: true });
    fs.cpSync(INSTANCES.main.dataDir, other.dataDir, { recursive: true });
  }
  process.exit(0);
}

if (!prepared) seed(instance);
Object.assign(process.env, envOf(instance));
await import("../../server.js");
