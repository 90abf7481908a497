// The server the browser tests run against: a fresh embedded database with the
// demo data and the test accounts (tests/e2e/people.ts), behind one trusted
// proxy hop so each test chooses its client address with X-Forwarded-For (and
// so has its own rate-limit bucket).
//
// `node tests/e2e/serve.js --prepare` only makes the data and exits, so that
// `npm test` can do it while other tests run; the server started afterwards
// with NAMECARD_E2E_PREPARED=1 uses that data as it is.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const DATA_DIR = "tests/.tmp/e2e-data";
const prepared = process.env.NAMECARD_E2E_PREPARED === "1";

Object.assign(process.env, {
  NODE_ENV: "production",
  PORT: "3100",
  PUBLIC_URL: "http://localhost:3100",
  DATA_DIR,
  ADMIN_EMAILS: "admin@example.com",
  // A hop count, not `true`: only the address our own proxy (the test) adds is believed.
  TRUST_PROXY: "1",
  DATABASE_URL: "",
  SMTP_URL: "",
});

if (!prepared) {
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  const seed = spawnSync(process.execPath, ["--import", "tsx", "scripts/e2e-seed.ts"], {
    stdio: "inherit",
    env: process.env,
  });
  if (seed.status !== 0) process.exit(seed.status ?? 1);
}

if (!process.argv.includes("--prepare")) await import("../../server.js");
