// `npm run bench:languages`: what the card's languages cost, side by side in one run
// (docs/decisions/047-languages.md). The built server, on a scratch data directory of
// BENCH_PROFILES (1,000) profiles, serves one anonymous card and its QR page to
// browsers asking for English, German, Japanese and Arabic: for each, the page's
// compressed bytes, requests a second and the server's processor time per response,
// with BENCH_CONNECTIONS (50) connections for BENCH_SECONDS (10) seconds each.
// With BENCH_BASELINE set to another checkout of Namecard, built (`npm run build`
// there), its server runs the same load first, on a copy of the same data: the
// figures before and after, in one table.
//
//   npm run build && BENCH_BASELINE=../namecard-before npm run bench:languages
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import { freePort } from "./free-port";
import { processorTimeOf } from "./memory";
import { fillDataDir } from "./people";

const PROFILES = Number(process.env.BENCH_PROFILES ?? 1_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const BASELINE = process.env.BENCH_BASELINE ? path.resolve(process.env.BENCH_BASELINE) : null;
const DATA_DIR = path.resolve(`bench/.data/languages-${PROFILES}`);
/** Cards are counted only for browsers; the benchmark presents itself as one. */
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const LANGUAGES = ["en", "de", "ja", "ar"];
const CARD = "/profile/person.1";

type Row = { build: string; page: string; language: string; bytes: number; reqs: number; cpuMs: number };

async function startServer(cwd: string, dataDir: string) {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    PUBLIC_URL: `http://localhost:${port}`,
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    ADMIN_EMAILS: "",
    SMTP_URL: "",
  };
  const child = spawn(process.execPath, ["server.js"], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk).slice(-20_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null || attempt > 600) throw new Error(`the server did not start:\n${output}`);
    if (
      await fetch(`${url}/healthz`).then(
        (response) => response.ok,
        () => false,
      )
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, url };
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  return exited;
}

async function measure(build: string, cwd: string, dataDir: string): Promise<Row[]> {
  const { child, url } = await startServer(cwd, dataDir);
  const rows: Row[] = [];
  try {
    for (const [page, pathname] of [
      ["card", CARD],
      ["QR page", CARD.replace("/profile/", "/qr/")],
    ] as const) {
      for (const language of LANGUAGES) {
        const headers = { "accept-encoding": "gzip", "user-agent": BROWSER, "accept-language": language };
        const html = await (await fetch(`${url}${pathname}`, { headers })).text();
        const options = { url: `${url}${pathname}`, connections: CONNECTIONS, headers };
        await autocannon({ ...options, duration: 2 });
        const before = processorTimeOf(child.pid);
        const result = await autocannon({ ...options, duration: SECONDS });
        const cpuMs = (processorTimeOf(child.pid) - before) / Math.max(result.requests.total, 1);
        if (result.non2xx + result.errors > 0) throw new Error(`${build} ${pathname} (${language}): failed answers`);
        rows.push({
          build,
          page,
          language,
          bytes: gzipSync(html, { level: 3 }).length,
          reqs: result.requests.average,
          cpuMs,
        });
      }
    }
  } finally {
    await stop(child);
  }
  return rows;
}

async function main() {
  if (!fs.existsSync("build/server/index.js")) throw new Error("build first: npm run build");
  console.info(`Preparing ${PROFILES.toLocaleString("en")} profiles…`);
  await fillDataDir(DATA_DIR, PROFILES);
  const rows: Row[] = [];
  if (BASELINE) {
    const copy = `${DATA_DIR}-baseline`;
    fs.rmSync(copy, { recursive: true, force: true });
    fs.cpSync(DATA_DIR, copy, { recursive: true });
    rows.push(...(await measure("before", BASELINE, copy)));
  }
  rows.push(...(await measure("now", process.cwd(), DATA_DIR)));
  console.info(`\n${CONNECTIONS} connections, ${SECONDS} s each, ${PROFILES.toLocaleString("en")} profiles\n`);
  console.info("| build | page | browser asks for | gzip bytes | req/s | processor ms per response |");
  console.info("|---|---|---|---:|---:|---:|");
  for (const row of rows) {
    console.info(
      `| ${row.build} | ${row.page} | ${row.language} | ${row.bytes.toLocaleString("en")} | ${Math.round(row.reqs).toLocaleString("en")} | ${row.cpuMs.toFixed(3)} |`,
    );
  }
}

await main();
process.exit(0);
