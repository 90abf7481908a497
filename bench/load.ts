// `npm run bench:load`: the built app under load, side by side with nginx
// serving the very same card HTML as a static file.
//
// 1. A scratch data directory with BENCH_PROFILES generated profiles (10,000 by
//    default) and one account to sign in with; reused while it is still valid.
// 2. The built server on a free port (once per mode in BENCH_MODES, default
//    `production`; `test,production` compares React's development build, which
//    `npm start` ran before it set NODE_ENV, with the production one), run by
//    each Node.js in BENCH_NODES (paths, comma-separated; by default the one
//    running the benchmark): `BENCH_NODES=node,/opt/node24/bin/node` compares two.
// 3. nginx (installed from Debian's packages when missing) on another free port,
//    serving the anonymous card's HTML saved to disk, gzip on.
// 4. autocannon against each route: BENCH_CONNECTIONS (50) connections for
//    BENCH_SECONDS (10) each, gzip accepted, after a short warm-up.
// 5. While 50 connections fetch QR PNGs, preview images and contact files of 50
//    cards, one more asks /healthz: its p99 shows whether anything blocks.
// 6. The server's memory: idle after start, after each of BENCH_ROUNDS (2) rounds
//    of load (no growth between them), its peak; and the peak of a first start
//    on a new, empty data directory.
// 7. With BENCH_SOAK_MINUTES (0 by default), a backup made through the running server
//    (`npm run backup`), then that many minutes of mixed load (every route above,
//    25 connections, spread over 2,000 cards, 200 directory pages and 300 search
//    words), the server's memory read after the backup and each minute: it must
//    level off, not climb. With BENCH_HEAP_SNAPSHOTS=1 the server also writes a
//    heap snapshot after the backup, after the first minute and after the last,
//    and the groups of objects that grew between the last two are printed.
// 8. What Chromium transfers to show the anonymous card (bench/card-weight.ts),
//    and Lighthouse's mobile scores for the card and its QR page (bench/lighthouse.ts).
//
//   npm run build && flock /tmp/namecard-heavy.lock npm run bench:load
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { measureCardWeight, printWeights, type Weight } from "./card-weight";
import { freePort } from "./free-port";
import { printHeapGrowth, takeHeapSnapshot } from "./heap";
import { type Audit, audit, printAudits } from "./lighthouse";
import { memoryOf, processorTimeOf } from "./memory";
import { accountStatements, fillDataDir } from "./people";

const PROFILES = Number(process.env.BENCH_PROFILES ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const MODES = (process.env.BENCH_MODES ?? "production").split(",").filter(Boolean);
const NODES = (process.env.BENCH_NODES ?? process.execPath).split(",").filter(Boolean);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
const SOAK_MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 0);
const HEAP_SNAPSHOTS = process.env.BENCH_HEAP_SNAPSHOTS === "1" && SOAK_MINUTES > 0;
const DATA_DIR = path.resolve(`bench/.data/load-${PROFILES}`);
const BENCH_EMAIL = "bench.load@example.com";
const BENCH_PASSWORD = "bench password 123";
const BENCH_USERNAME = "bench.load";
/** Cards are counted only for browsers; the benchmark presents itself as one. */
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

/** What makes a scratch data directory valid: the profile count and the migrations it was made with. */
function dataFingerprint() {
  const journal = fs.readFileSync("drizzle/meta/_journal.json", "utf8");
  return createHash("sha256").update(`${PROFILES}\n${journal}`).digest("hex");
}

async function prepareData() {
  const marker = path.join(DATA_DIR, "bench-fingerprint");
  const fingerprint = dataFingerprint();
  if (fs.existsSync(marker) && fs.readFileSync(marker, "utf8") === fingerprint) {
    console.info(`  reusing ${PROFILES.toLocaleString("en")} profiles in ${path.relative(".", DATA_DIR)}`);
    return;
  }
  const started = performance.now();
  await fillDataDir(DATA_DIR, PROFILES, async (pglite) => {
    // The account the signed-in routes use, with its card already made, so that
    // signing in adds nothing and the data stays valid for the next run.
    const account = { email: BENCH_EMAIL, password: BENCH_PASSWORD, firstName: "Bench", lastName: "Load" };
    for (const [statement, values] of await accountStatements({ ...account, username: BENCH_USERNAME })) {
      await pglite.query(statement, values);
    }
    await pglite.exec("analyze");
  });
  fs.writeFileSync(marker, fingerprint);
  console.info(
    `  filled ${PROFILES.toLocaleString("en")} profiles in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

/** Lets the server settle after start or load (timers, collection) before its memory is read. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 3_000));

async function waitFor(url: string, child: ChildProcess, output: () => string) {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) throw new Error(`${url}: the process ended:\n${output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer:\n${output()}`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  return exited;
}

/** One server set-up of the comparison: React's mode and the Node.js that runs it. */
type Setup = { mode: string; node: string };

/** How a set-up is named in the tables: its mode, and its Node.js version when several are compared. */
function nameOf(setup: Setup): string {
  if (NODES.length === 1) return setup.mode;
  const version = spawnSync(setup.node, ["--version"], { encoding: "utf8" }).stdout.trim();
  return `${setup.mode}, ${version}`;
}

async function startServer({ mode, node }: Setup, dataDir = DATA_DIR, diagnostics?: string) {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: mode,
    PORT: String(port),
    PUBLIC_URL: `http://localhost:${port}`,
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    ADMIN_EMAILS: "",
    SMTP_URL: "",
  };
  const flags = diagnostics ? ["--heapsnapshot-signal=SIGUSR2", `--diagnostic-dir=${diagnostics}`] : [];
  const child = spawn(node, [...flags, "server.js"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output = (output + chunk).slice(-20_000);
  });
  child.stderr?.on("data", (chunk) => {
    output = (output + chunk).slice(-20_000);
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/healthz`, child, () => output);
  return { child, url, port, output: () => output };
}

function ensureNginx(): string {
  const found = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((file) => fs.existsSync(file));
  if (found) return found;
  console.info("  installing nginx from Debian's packages…");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const result = spawnSync("apt-get", ["install", "-y", "--no-install-recommends", "nginx"], { stdio: "inherit", env });
  if (result.status !== 0) throw new Error("could not install nginx: run `apt-get install nginx` as root");
  return "/usr/sbin/nginx";
}

async function startNginx(html: Buffer) {
  const nginx = ensureNginx();
  const port = await freePort();
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), "namecard-bench-nginx-"));
  fs.chmodSync(prefix, 0o755);
  fs.mkdirSync(path.join(prefix, "logs"));
  fs.writeFileSync(path.join(prefix, "card.html"), html, { mode: 0o644 });
  const conf = path.join(prefix, "nginx.conf");
  fs.writeFileSync(
    conf,
    `worker_processes auto;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
daemon off;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  gzip on;
  gzip_types text/html;
  server {
    listen 127.0.0.1:${port};
    root ${prefix};
    location / { default_type "text/html; charset=utf-8"; try_files /card.html =404; }
  }
}
`,
  );
  const child = spawn(nginx, ["-p", prefix, "-c", conf], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stderr?.on("data", (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/card`, child, () => output);
  return {
    url,
    async stop() {
      await stopChild(child);
      fs.rmSync(prefix, { recursive: true, force: true });
    },
  };
}

type Result = {
  route: string;
  reqs: number;
  p50: number;
  p99: number;
  errors: number;
  bytes: number;
  /** The server's processor time per answer (all its threads), ms; null where not measured. */
  cpuMs: number | null;
};

function resultOf(route: string, result: autocannon.Result, cpuMs: number | null = null): Result {
  return {
    cpuMs,
    route,
    reqs: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    bytes: result.throughput.average / Math.max(result.requests.average, 1),
  };
}

/** Processor time per answer of the process `pid` while `load` ran. */
async function measured(pid: number | undefined, load: Promise<autocannon.Result>) {
  const before = processorTimeOf(pid);
  const result = await load;
  return { result, cpuMs: pid ? (processorTimeOf(pid) - before) / Math.max(result.requests.total, 1) : null };
}

async function drive(
  route: string,
  url: string,
  headers: Record<string, string> = {},
  serverPid?: number,
): Promise<Result> {
  const options = {
    url,
    connections: CONNECTIONS,
    headers: { "accept-encoding": "gzip", "user-agent": BROWSER, ...headers },
  };
  await autocannon({ ...options, duration: 2 }); // warm-up
  const { result, cpuMs } = await measured(serverPid, autocannon({ ...options, duration: SECONDS }));
  return resultOf(route, result, cpuMs);
}

/** The health check's latency while every connection but one fetches images and contact files. */
async function healthUnderImages(url: string, serverPid: number | undefined): Promise<Result[]> {
  const requests = Array.from({ length: 50 }, (_, index) => `/profile/person.${index + 1}`).flatMap((card) =>
    ["/qr.png", "/og.png", "/contact.vcf"].map((file) => ({ method: "GET" as const, path: `${card}${file}` })),
  );
  const headers = { "accept-encoding": "gzip", "user-agent": BROWSER };
  const [images, health] = await Promise.all([
    measured(serverPid, autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers, requests })),
    autocannon({ url: `${url}/healthz`, connections: 1, duration: SECONDS }),
  ]);
  return [
    resultOf("QR PNGs, previews, contact files of 50 cards", images.result, images.cpuMs),
    resultOf("/healthz, meanwhile (1 connection)", health),
  ];
}

/** The memory of a first start: the server on a new, empty data directory until it answers. */
async function firstStart(setup: Setup) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "namecard-first-start-"));
  const started = performance.now();
  const server = await startServer(setup, dataDir);
  const seconds = (performance.now() - started) / 1000;
  try {
    await settle();
    return { seconds, ...memoryOf(server.child.pid) };
  } finally {
    await stopChild(server.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function signIn(url: string, port: number) {
  const response = await fetch(`${url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: `http://localhost:${port}` },
    body: JSON.stringify({ email: BENCH_EMAIL, password: BENCH_PASSWORD }),
  });
  if (!response.ok) throw new Error(`signing in failed: ${response.status} ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/** A backup of the data directory, asked of the running server as `npm run backup` does. */
async function backUp(port: number) {
  const archive = path.join(os.tmpdir(), `namecard-bench-backup-${process.pid}.ndjson.gz`);
  const child = spawn("node_modules/.bin/tsx", ["scripts/backup.ts", archive], {
    env: { ...process.env, DATA_DIR, PORT: String(port), DATABASE_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  fs.rmSync(archive, { force: true });
  if (code !== 0) throw new Error(`the backup failed:\n${output}`);
}

/** Words of the generated people (bench/people.ts); the soak also searches their first three letters plus one. */
const SOAK_WORDS = ["maria", "james", "chen", "rossi", "smith", "garcia", "tanaka", "analyst", "designer", "olsen"];

/**
 * `seconds` of every route at once, a share of the connections each, each
 * route spread over many cards, pages and search words, as a company's day is:
 * whatever the server keeps per card or per search is filled, not just hit.
 */
async function soak(url: string, cookie: string, seconds: number) {
  const cards = Array.from({ length: 2_000 }, (_, index) => `/profile/person.${index * 37 + 1}`);
  const words = Array.from({ length: 300 }, (_, index) => {
    const word = SOAK_WORDS[index % SOAK_WORDS.length]!;
    return index < SOAK_WORDS.length ? word : `${word.slice(0, 3)}${String.fromCharCode(97 + (index % 26))}`;
  });
  const signedIn = { cookie };
  const groups: [string[], Record<string, string>?][] = [
    [cards],
    [cards.map((card) => card.replace("/profile/", "/qr/"))],
    [cards.map((card) => `${card}/contact.vcf`)],
    [cards.map((card) => `${card}/qr.png`)],
    [cards.slice(0, 200).map((card) => `${card}/og.png`)],
    [Array.from({ length: 200 }, (_, index) => `/directory?page=${index + 1}`), signedIn],
    [words.map((word) => `/directory?q=${word}`), signedIn],
    [["/profile/edit", "/"], signedIn],
  ];
  await Promise.all(
    groups.map(([paths, headers]) =>
      autocannon({
        url,
        connections: Math.max(1, Math.round(25 / groups.length)),
        duration: seconds,
        headers: { "user-agent": BROWSER, "accept-encoding": "gzip", ...headers },
        requests: paths.map((target) => ({ method: "GET" as const, path: target })),
      }),
    ),
  );
}

async function main() {
  if (!fs.existsSync("build/server/index.js")) throw new Error("no build: run `npm run build` first");
  console.info(
    `\nNamecard load benchmark — ${PROFILES.toLocaleString("en")} profiles, ${CONNECTIONS} connections, ${SECONDS} s per route, ${os.availableParallelism()} cores\n`,
  );
  await prepareData();
  const card = "/profile/person.1";
  const rows: (Result & { mode: string; ratio?: number })[] = [];
  const memory: { mode: string; moment: string; rss: number; peak: number }[] = [];
  const diagnostics = HEAP_SNAPSHOTS ? fs.mkdtempSync(path.join(os.tmpdir(), "namecard-bench-heap-")) : undefined;
  const snapshots: { moment: string; file: string }[] = [];
  let nginxResult: Result | undefined;
  let weights: Weight[] | undefined;
  let audits: Audit[] | undefined;
  const setups = MODES.flatMap((mode) => NODES.map((node) => ({ mode, node })));
  for (const setup of setups) {
    const mode = nameOf(setup);
    const first = await firstStart(setup);
    memory.push({ mode, moment: `first start on a new data directory (${first.seconds.toFixed(1)} s)`, ...first });
    const server = await startServer(setup, DATA_DIR, diagnostics);
    const snapshot = async (moment: string) => {
      if (diagnostics)
        snapshots.push({ moment, file: await takeHeapSnapshot(server.child, diagnostics, `${server.url}/healthz`) });
    };
    try {
      await settle();
      memory.push({ mode, moment: "idle after start", ...memoryOf(server.child.pid) });
      const html = Buffer.from(
        await (await fetch(`${server.url}${card}`, { headers: { "user-agent": BROWSER } })).arrayBuffer(),
      );
      if (!nginxResult) {
        const nginx = await startNginx(html);
        try {
          nginxResult = await drive("nginx: the same card HTML, static", `${nginx.url}/card`);
        } finally {
          await nginx.stop();
        }
      }
      weights ??= await measureCardWeight(`${server.url}${card}`).catch((error: Error) => {
        console.warn(`  could not measure the card's weight in Chromium: ${error.message.split("\n")[0]}`);
        return undefined;
      });
      if (!audits && process.env.BENCH_LIGHTHOUSE !== "0") {
        audits = [];
        for (const page of [card, "/qr/person.1"]) {
          const result = await audit(`${server.url}${page}`).catch((error: Error) => {
            console.warn(`  could not run Lighthouse: ${error.message.split("\n")[0]}`);
            return undefined;
          });
          if (result) audits.push(result);
        }
      }
      const cookie = await signIn(server.url, server.port);
      const routes: [string, string, Record<string, string>?][] = [
        ["anonymous card", card],
        ["QR page", "/qr/person.1"],
        ["contact file", `${card}/contact.vcf`],
        ["QR PNG", `${card}/qr.png`],
        ["signed-in directory", "/directory", { cookie }],
        ["signed-in search 'maria'", "/directory?q=maria", { cookie }],
        ["signed-in profile edit page", "/profile/edit", { cookie }],
        ["member's home", "/", { cookie }],
      ];
      for (let round = 1; round <= ROUNDS; round++) {
        for (const [route, target, headers] of routes) {
          const result = await drive(route, `${server.url}${target}`, headers, server.child.pid);
          if (round === ROUNDS) rows.push({ mode, ...result });
          process.stdout.write(".");
        }
        const underImages = await healthUnderImages(server.url, server.child.pid);
        if (round === ROUNDS) rows.push(...underImages.map((result) => ({ mode, ...result })));
        await settle();
        memory.push({ mode, moment: `after load, round ${round} of ${ROUNDS}`, ...memoryOf(server.child.pid) });
      }
      if (SOAK_MINUTES > 0) {
        await backUp(server.port);
        await settle();
        memory.push({ mode, moment: "after a backup", ...memoryOf(server.child.pid) });
        await snapshot("after a backup");
        for (let minute = 1; minute <= SOAK_MINUTES; minute++) {
          await soak(server.url, cookie, 60);
          await settle();
          const moment = `mixed soak, minute ${minute} of ${SOAK_MINUTES}`;
          memory.push({ mode, moment, ...memoryOf(server.child.pid) });
          if (minute === 1 || minute === SOAK_MINUTES) await snapshot(moment);
        }
      }
    } finally {
      await stopChild(server.child);
    }
  }
  process.stdout.write("\n\n");
  const nginxRate = nginxResult?.reqs ?? 0;
  const table = [
    ["mode", "route", "req/s", "p50 ms", "p99 ms", "errors", "bytes/resp", "× nginx", "cpu ms/resp"],
    ...[{ mode: "—", ...(nginxResult as Result) }, ...rows].map((row) => [
      row.mode,
      row.route,
      row.reqs.toFixed(0),
      row.p50.toFixed(0),
      row.p99.toFixed(0),
      String(row.errors),
      row.bytes.toFixed(0),
      nginxRate ? (row.reqs / nginxRate).toFixed(3) : "—",
      row.cpuMs === null ? "—" : row.cpuMs.toFixed(2),
    ]),
  ];
  const widths = table[0]!.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
  for (const [index, row] of table.entries()) {
    console.info(
      `  ${row.map((cell, column) => (column < 2 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  ")}`,
    );
    if (index === 0) console.info(`  ${widths.map((width) => "-".repeat(width)).join("  ")}`);
  }
  console.info("\n  server memory (MB): resident now, and the peak so far");
  for (const { mode, moment, rss, peak } of memory) {
    console.info(
      `  ${mode.padEnd(NODES.length > 1 ? 22 : 12)} ${moment.padEnd(52)} ${rss.toFixed(0).padStart(5)} ${peak.toFixed(0).padStart(5)}`,
    );
  }
  printHeapGrowth(snapshots.slice(1));
  if (diagnostics) fs.rmSync(diagnostics, { recursive: true, force: true });
  if (weights) {
    console.info("\n  what Chromium transfers to show the anonymous card (compressed, with headers):");
    printWeights(weights);
  }
  if (audits?.length) {
    console.info("\n  Lighthouse, mobile (median of 3 runs; targets: performance 95, accessibility 100):");
    printAudits(audits);
  }
  console.info(
    "\n  Targets at 100,000 profiles (BENCH_PROFILES=100000): the anonymous card, QR page and contact file at least" +
      "\n  0.5× nginx, zero errors; the signed-in directory 200 req/s with p99 under 500 ms, a common search word 100," +
      "\n  the profile edit page and the member's home 200; /healthz p99 under 50 ms under image load; memory at most 250 MB idle, at most" +
      "\n  400 MB after load and at a first start's peak. cpu ms/resp is the server's processor time per answer, all" +
      "\n  its threads: on a busy machine it moves far less between runs than req/s.\n",
  );
}

try {
  await main();
} catch (error) {
  console.error(`\nBenchmark failed: ${(error as Error).message.slice(0, 2000)}`);
  process.exit(1);
}
