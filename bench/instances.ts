// `npm run bench:instances`: Namecard on PostgreSQL served by one, two and
// three processes on one port (PROCESSES), side by side in one run, with the
// same data and the same load: the signed-in directory, a common search word,
// the profile edit page, the member's home and the anonymous card.
//
// 1. BENCH_DATABASE_URL names a scratch database (never DATABASE_URL, which may
//    be the real one): it is emptied and filled with
//    BENCH_PROFILES (100,000) people and one account to sign in with.
// 2. For each count in BENCH_PROCESSES (1,2,3): the built server with
//    PROCESSES set to it, signed in once, each route driven by autocannon with
//    BENCH_CONNECTIONS (50) connections for BENCH_SECONDS (10) after a warm-up.
// 3. One table: requests per second, p50 and p99 per route and count, and the
//    ratio to one process.
//
//   npm run build && BENCH_DATABASE_URL=postgresql://user:pass@127.0.0.1/scratch npm run bench:instances
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { benchServerEnv, freePort } from "./free-port";
import { accountStatements, peopleSql } from "./people";

const DATABASE_URL = process.env.BENCH_DATABASE_URL;
if (!DATABASE_URL) {
  console.error("bench:instances needs BENCH_DATABASE_URL: a scratch PostgreSQL database (it is emptied)");
  process.exit(1);
}
const PROFILES = Number(process.env.BENCH_PROFILES ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const COUNTS = (process.env.BENCH_PROCESSES ?? "1,2,3").split(",").map(Number).filter(Boolean);
const BENCH_EMAIL = "bench.instances@example.com";
const BENCH_PASSWORD = "bench password 123";
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

type Server = { child: ChildProcess; url: string; port: number; output: () => string };

async function startServer(processes: number): Promise<Server> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "namecard-bench-instances-"));
  const child = spawn(process.execPath, ["server.js"], {
    env: {
      ...benchServerEnv({ port, dataDir, databaseUrl: DATABASE_URL }),
      PUBLIC_URL: `http://localhost:${port}`,
      PROCESSES: String(processes),
      ADMIN_EMAILS: "",
      SMTP_URL: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  child.once("exit", () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const url = `http://127.0.0.1:${port}`;
  // Every process must be listening, not only the first.
  for (let attempt = 0; (output.match(/Namecard is listening/g)?.length ?? 0) < processes; attempt++) {
    if (child.exitCode !== null || attempt > 1_200) throw new Error(`the server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, url, port, output: () => output };
}

function stopServer(server: Server): Promise<void> {
  if (server.child.exitCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => server.child.once("exit", () => resolve()));
  server.child.kill("SIGTERM");
  return exited;
}

/** Empties the database, lets the server migrate it, and fills it. */
async function prepareData() {
  const started = performance.now();
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  await client.query(
    "drop schema if exists public cascade; drop schema if exists drizzle cascade; create schema public",
  );
  const migrating = await startServer(1);
  await stopServer(migrating);
  await client.query(peopleSql(PROFILES));
  const account = { email: BENCH_EMAIL, password: BENCH_PASSWORD, firstName: "Bench", lastName: "Instances" };
  for (const [statement, values] of await accountStatements({ ...account, username: "bench.instances" })) {
    await client.query(statement, values);
  }
  await client.query("analyze");
  await client.end();
  console.info(
    `  filled ${PROFILES.toLocaleString("en")} profiles in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

async function signIn(server: Server) {
  const response = await fetch(`${server.url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: `http://localhost:${server.port}` },
    body: JSON.stringify({ email: BENCH_EMAIL, password: BENCH_PASSWORD }),
  });
  if (!response.ok) throw new Error(`signing in failed: ${response.status} ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

type Result = { reqs: number; p50: number; p99: number; errors: number };

async function drive(url: string, headers: Record<string, string>): Promise<Result> {
  const options = {
    url,
    connections: CONNECTIONS,
    headers: { "accept-encoding": "gzip", "user-agent": BROWSER, ...headers },
  };
  await autocannon({ ...options, duration: 2 });
  const result = await autocannon({ ...options, duration: SECONDS });
  return {
    reqs: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

const ROUTES: [string, string, boolean][] = [
  [`signed-in directory, ${(PROFILES + 1).toLocaleString("en")} people`, "/directory", true],
  ["signed-in search 'maria'", "/directory?q=maria", true],
  ["signed-in profile edit page", "/profile/edit", true],
  ["signed-in home", "/", true],
  ["anonymous card", "/profile/person.1", false],
];

console.info(`bench:instances: ${os.availableParallelism()} cores, Node ${process.versions.node}`);
await prepareData();
const results = new Map<number, Result[]>();
for (const count of COUNTS) {
  const server = await startServer(count);
  try {
    const cookie = await signIn(server);
    const row: Result[] = [];
    for (const [, pathname, signedIn] of ROUTES) {
      row.push(await drive(`${server.url}${pathname}`, signedIn ? { cookie } : {}));
    }
    results.set(count, row);
    console.info(`  ${count} process${count === 1 ? "" : "es"}: done`);
  } finally {
    await stopServer(server);
  }
}

const number = (value: number) => Math.round(value).toLocaleString("en");
console.info(
  `\n| route | ${COUNTS.map((count) => `${count} process${count === 1 ? "" : "es"}: req/s, p50, p99 ms`).join(" | ")} |`,
);
console.info(`|---|${COUNTS.map(() => "---").join("|")}|`);
ROUTES.forEach(([label], index) => {
  const base = results.get(COUNTS[0]!)?.[index];
  const cells = COUNTS.map((count) => {
    const result = results.get(count)?.[index];
    if (!result) return "";
    const ratio = base && count !== COUNTS[0] ? ` (${(result.reqs / base.reqs).toFixed(2)}×)` : "";
    const errors = result.errors ? `, ${number(result.errors)} errors` : "";
    return `${number(result.reqs)}${ratio}, ${number(result.p50)}, ${number(result.p99)}${errors}`;
  });
  console.info(`| ${label} | ${cells.join(" | ")} |`);
});
