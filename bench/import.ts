// `npm run bench:import`: imports a generated CSV file of 10,000 people
// (BENCH_ROWS) through the built server on a scratch data directory, as an
// administrator would — upload, preview, import — and prints how long each
// step took. The import itself runs in the server's import worker; the
// benchmark waits for the page to say it finished. Then it imports the same
// file again, which must change nothing. Target: the first import, upload
// included, under 30 s. It also prints the server's resident memory before
// the imports and at its peak (the whole file is parsed and planned in
// memory). Run `npm run build` first.
//
//   npm run bench:import
//   DATABASE_URL=postgresql://user:pass@127.0.0.1/scratch npm run bench:import
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { generateRandomString, hashPassword } from "better-auth/crypto";
import { sql } from "drizzle-orm";
import { benchServerEnv, freePort } from "./free-port";
import { memoryOf } from "./memory";

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const TARGET_SECONDS = 30;
const BRANDS = 20;
const DATA_DIR = path.resolve("bench/.data/import");
const BENCH_EMAIL = "bench.admin@example.com";
const BENCH_PASSWORD = "bench password 123";
const postgresUrl = process.env.DATABASE_URL || undefined;

const PORT = await freePort();
const BASE = `http://localhost:${PORT}`;

process.env.DATA_DIR = DATA_DIR;
process.env.ADMIN_EMAILS = BENCH_EMAIL;
process.env.PUBLIC_URL = BASE;

const FIRST = ["Maria", "James", "Sofia", "Łukasz", "Aisha", "Noah", "王", "Ελένη", "Mateo", "Zoë", "Léa", "Kenji"];
const LAST = ["Garcia", "Smith", "Müller", "Wiśniewski", "Nguyen", "芳", "Παπαδοπούλου", "Dubois", "Yılmaz", "O'Brien"];
const TITLES = ["Engineer", "Designer", "Account Executive", "Analyst", "Manager, Sales", "Director"];

/** The file as Excel writes "CSV UTF-8" in Europe: BOM, semicolons, CRLF, quotes where needed. */
function csvFile(): string {
  const quote = (value: string) => (/[;"\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  const lines = ["First name;Last name;E-mail;Job title;Mobile;Company;LinkedIn;Bio"];
  for (let n = 0; n < ROWS; n++) {
    const first = FIRST[n % FIRST.length] as string;
    const last = LAST[Math.floor(n / FIRST.length) % LAST.length] as string;
    const brand = `Brand ${String((n % BRANDS) + 1).padStart(2, "0")}`;
    lines.push(
      [
        first,
        last,
        `person.${n}@bench.example`,
        TITLES[n % TITLES.length] as string,
        `+44 20 7946 ${String(n % 10_000).padStart(4, "0")}`,
        n % 2 ? brand.toUpperCase() : brand,
        `https://www.linkedin.com/in/person-${n}`,
        n % 5 === 0 ? `Joined in ${2000 + (n % 25)}.\nWorks on "${TITLES[(n + 1) % TITLES.length]}".` : "",
      ]
        .map(quote)
        .join(";"),
    );
  }
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}

async function prepareDatabase() {
  if (!postgresUrl) {
    fs.rmSync(DATA_DIR, { recursive: true, force: true });
    fs.mkdirSync(DATA_DIR, { recursive: true });
  }
  const { connectDatabase } = await import("../app/.server/platform/db/connect");
  const { db } = await import("../app/.server/platform/db/client");
  const { accounts, brands, users } = await import("../app/.server/platform/db/schema");
  const handle = await connectDatabase();
  await db.execute(
    sql`truncate imports, profiles, profile_views, brands, users, sessions, accounts restart identity cascade`,
  );
  await db
    .insert(brands)
    .values(Array.from({ length: BRANDS }, (_, i) => ({ name: `Brand ${String(i + 1).padStart(2, "0")}` })));
  const id = generateRandomString(32);
  await db.insert(users).values({
    id,
    name: "Bench Admin",
    email: BENCH_EMAIL,
    emailVerified: true,
    firstName: "Bench",
    lastName: "Admin",
  });
  await db.insert(accounts).values({
    id: generateRandomString(32),
    accountId: id,
    providerId: "credential",
    userId: id,
    password: await hashPassword(BENCH_PASSWORD),
  });
  const engine = handle.kind === "pglite" ? "PGlite (embedded)" : "PostgreSQL";
  await handle.close();
  return engine;
}

const seconds = (from: number) => (performance.now() - from) / 1000;

async function importOnce(cookie: string, file: string, label: string) {
  const headers = { cookie, origin: BASE };
  const started = performance.now();
  const form = new FormData();
  form.set("file", new Blob([file], { type: "text/csv" }), "people.csv");
  const uploaded = await fetch(`${BASE}/admin/import`, { method: "POST", headers, body: form, redirect: "manual" });
  const location = uploaded.headers.get("location");
  if (uploaded.status !== 302 || !location) throw new Error(`upload answered ${uploaded.status}`);
  const uploadSeconds = seconds(started);

  const previewStarted = performance.now();
  const preview = await (await fetch(`${BASE}${location}`, { headers })).text();
  const previewSeconds = seconds(previewStarted);
  const importable = /Import ([0-9,]+) rows?/.exec(preview)?.[1] ?? "?";

  // The guessed mapping, as the page's selects send it.
  const mapping = ["firstName", "lastName", "email", "title", "phone", "brand", "linkedinUrl", "bio"];
  const body = new URLSearchParams({ intent: "start" });
  for (const [index, field] of mapping.entries()) body.set(`column.${index}`, field);
  const importStarted = performance.now();
  const start = await fetch(`${BASE}${location}`, { method: "POST", headers, body, redirect: "manual" });
  if (start.status !== 302) throw new Error(`starting answered ${start.status}`);
  let page = "";
  for (;;) {
    page = await (await fetch(`${BASE}${location}`, { headers })).text();
    if (page.includes("Import finished") || page.includes("Import interrupted")) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  if (!page.includes("Import finished")) throw new Error("the import was interrupted");
  const importSeconds = seconds(importStarted);
  const counts = [...page.matchAll(/<dt[^>]*>.*?<\/span>([^<]+)<\/dt><dd[^>]*>([0-9,]+)<\/dd>/g)]
    .map((match) => `${match[1]} ${match[2]}`)
    .join(", ");
  const total = seconds(started);
  console.info(
    `  ${label.padEnd(14)} upload ${uploadSeconds.toFixed(1)} s · preview ${previewSeconds.toFixed(1)} s (${importable} to import) · import ${importSeconds.toFixed(1)} s · total ${total.toFixed(1)} s (${Math.round(ROWS / total).toLocaleString("en")} rows/s)`,
  );
  console.info(`  ${"".padEnd(14)} ${counts}`);
  return total;
}

async function main() {
  if (!fs.existsSync("build/server/index.js")) throw new Error("no build: run `npm run build` first");
  const engine = await prepareDatabase();
  const file = csvFile();
  console.info(
    `\nNamecard import benchmark — ${engine}, ${ROWS.toLocaleString("en")} rows (${(file.length / 1024 / 1024).toFixed(1)} MB), ${BRANDS} brands\n`,
  );
  const server = spawn(process.execPath, ["server.js"], {
    env: benchServerEnv({ port: PORT, dataDir: DATA_DIR, databaseUrl: postgresUrl }),
    stdio: ["ignore", "ignore", "pipe"],
  });
  // What the server said last, shown if the benchmark fails.
  let errors = "";
  server.stderr?.on("data", (chunk) => {
    errors = (errors + chunk).slice(-4_000);
  });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        if ((await fetch(`${BASE}/healthz`)).ok) break;
      } catch {
        // starting
      }
      if (attempt > 600) throw new Error("the server did not start");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const signIn = await fetch(`${BASE}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: BASE },
      body: JSON.stringify({ email: BENCH_EMAIL, password: BENCH_PASSWORD }),
    });
    if (!signIn.ok) throw new Error(`signing in answered ${signIn.status}`);
    const cookie = signIn.headers
      .getSetCookie()
      .map((value) => value.split(";")[0])
      .join("; ");
    const idle = memoryOf(server.pid);
    const first = await importOnce(cookie, file, "first import");
    await importOnce(cookie, file, "same file");
    const after = memoryOf(server.pid);
    console.info(
      `\n  server memory: ${idle.rss.toFixed(0)} MB resident before the imports, ${after.rss.toFixed(0)} MB after, peak ${after.peak.toFixed(0)} MB`,
    );
    console.info(
      `\n  ${ROWS.toLocaleString("en")} rows imported in ${first.toFixed(1)} s (target: under ${TARGET_SECONDS} s) — ${first < TARGET_SECONDS ? "OK" : "TOO SLOW"}\n`,
    );
    if (first >= TARGET_SECONDS) process.exitCode = 1;
  } catch (error) {
    if (errors) console.error(`\n  the server's errors:\n${errors}`);
    throw error;
  } finally {
    server.kill("SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
  }
}

try {
  await main();
} catch (error) {
  console.error(`\nBenchmark failed: ${(error as Error).message.slice(0, 500)}`);
  process.exit(1);
}
