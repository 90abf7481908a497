// Lighthouse's mobile audit (performance and accessibility) of a page, run
// against Debian's Chromium (CHROME_PATH, default /usr/bin/chromium). Lighthouse
// is fetched from the npm registry by npx on first use, so that installing
// Namecard does not carry it. Used by `npm run bench:load` (BENCH_LIGHTHOUSE=0
// skips it); alone: `npx tsx bench/lighthouse.ts http://127.0.0.1:PORT/profile/USERNAME`.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const LIGHTHOUSE = "lighthouse@13.5.0";
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);

export type Audit = { url: string; performance: number; accessibility: number; firstPaintMs: number };

type Report = {
  categories: Record<string, { score: number | null }>;
  audits: Record<string, { numericValue?: number }>;
};

function runOnce(url: string, output: string): Promise<void> {
  const args = [
    "--yes",
    LIGHTHOUSE,
    url,
    "--quiet",
    "--only-categories=performance,accessibility",
    "--output=json",
    `--output-path=${output}`,
    "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
  ];
  const env = { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? "/usr/bin/chromium" };
  return new Promise((resolve, reject) => {
    const child = spawn("npx", args, { env, stdio: ["ignore", "ignore", "pipe"] });
    let errors = "";
    child.stderr.on("data", (chunk) => (errors = (errors + chunk).slice(-4_000)));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`lighthouse exited ${code}: ${errors}`))));
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** The median of RUNS audits: scores 0–100 and the first contentful paint. */
export async function audit(url: string): Promise<Audit> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "namecard-lighthouse-"));
  try {
    const reports: Report[] = [];
    for (let run = 0; run < RUNS; run++) {
      const output = path.join(dir, `run-${run}.json`);
      await runOnce(url, output);
      reports.push(JSON.parse(fs.readFileSync(output, "utf8")) as Report);
    }
    const score = (category: string) =>
      median(reports.map((report) => Math.round((report.categories[category]?.score ?? 0) * 100)));
    return {
      url,
      performance: score("performance"),
      accessibility: score("accessibility"),
      firstPaintMs: median(reports.map((report) => report.audits["first-contentful-paint"]?.numericValue ?? 0)),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function printAudits(audits: Audit[]) {
  for (const { url, performance, accessibility, firstPaintMs } of audits) {
    console.info(
      `  ${new URL(url).pathname.padEnd(28)} performance ${String(performance).padStart(3)}  accessibility ${String(accessibility).padStart(3)}  first paint ${(firstPaintMs / 1000).toFixed(1)} s`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const urls = process.argv.slice(2);
  if (!urls.length) throw new Error("give the URLs to audit");
  const audits: Audit[] = [];
  for (const url of urls) audits.push(await audit(url));
  printAudits(audits);
}
