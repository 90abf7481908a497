// The server the browser tests run against: a fresh embedded database with the
// demo data. It trusts one proxy hop: the browser connects over loopback and
// each test sends its own X-Forwarded-For, so each test has its own client
// address (and so its own rate-limit bucket), exactly as behind one nginx.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const DATA_DIR = "tests/.tmp/e2e-data";
fs.rmSync(DATA_DIR, { recursive: true, force: true });

Object.assign(process.env, {
  NODE_ENV: "production",
  PORT: "3100",
  PUBLIC_URL: "http://localhost:3100",
  DATA_DIR,
  ADMIN_EMAILS:
    "admin@example.com,admin.mobile@example.com,admin.theme@example.com,admin.card@example.com,admin.directory@example.com,admin.authz@example.com,admin.ui@example.com,admin.settings@example.com,admin.brands@example.com,admin.styles@example.com",
  TRUST_PROXY: "1",
  DATABASE_URL: "",
  SMTP_URL: "",
});

const seed = spawnSync("npx", ["tsx", "scripts/seed.ts"], { stdio: "inherit", env: process.env });
if (seed.status !== 0) process.exit(seed.status ?? 1);

await import("../../server.js");
