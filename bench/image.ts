// `npm run bench:image`: the container image's size, its cold and warm start, and the memory
// its container holds idle and after a load of card views, side by side. Builds the image as
// the tests do (tests/support/containers.ts: podman, on Debian bases made here) and runs it
// with a read-only root on a data volume, the embedded database, as the quick start does.
import fs from "node:fs";
import autocannon from "autocannon";
import { buildImage, dataVolume, healthy, IMAGE, podman, podmanOk } from "../tests/support/containers";
import { signedInMember } from "../tests/support/server-process";
import { freePort } from "./free-port";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const EMAIL = "bench.image@example.com";
const rows: [string, string][] = [];
const show = (what: string, value: string) => {
  rows.push([what, value]);
  console.info(`${what.padEnd(44)} ${value}`);
};
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** The server's resident memory in the container, and its peak so far (the kernel's VmRSS and VmHWM). */
async function memory(name: string) {
  const status = await podmanOk("exec", name, "cat", "/proc/1/status");
  const kilobytes = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
  return `${megabytes(kilobytes("VmRSS") * 1024)} (peak ${megabytes(kilobytes("VmHWM") * 1024)})`;
}

/** Idle: a few seconds after the last answer, once start-up compilation has settled. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5_000));

async function timedStart(start: () => Promise<unknown>, url: string) {
  const started = performance.now();
  await start();
  await healthy(url, 120_000);
  return `${((performance.now() - started) / 1000).toFixed(1)} s`;
}

const { version } = JSON.parse(fs.readFileSync("package.json", "utf8")) as { version: string };
await buildImage({ version, revision: "bench" });
show("image size", megabytes(Number((await podmanOk("image", "inspect", "--format", "{{.Size}}", IMAGE)).trim())));

const dataDir = dataVolume();
const port = await freePort();
const name = `namecard-bench-${process.pid}`;
const url = `http://127.0.0.1:${port}`;
try {
  const run = () =>
    podmanOk(
      ...["run", "--detach", "--name", name, "--read-only", "--network=host", "--volume", `${dataDir}:/data`],
      ...["--env", `PORT=${port}`, "--env", `PUBLIC_URL=http://localhost:${port}`, "--env", `ADMIN_EMAILS=${EMAIL}`],
      IMAGE,
    );
  show("cold start, new volume (run to /healthz 200)", await timedStart(run, url));
  await settle();
  show("memory idle after the first start", await memory(name));
  await podmanOk("stop", "--time", "30", name);
  show("warm start, same volume", await timedStart(() => podmanOk("start", name), url));
  await settle();
  show("memory idle", await memory(name));

  const cookie = await signedInMember({ url, port, dataDir }, EMAIL, { first: "Bench", last: "Image" });
  const html = await (await fetch(`${url}/profile/edit`, { headers: { cookie } })).text();
  const username = /name="username"[^>]*value="([^"]+)"/.exec(html)?.[1];
  const result = await autocannon({
    url: `${url}/profile/${username}`,
    connections: 50,
    duration: SECONDS,
    headers: { "accept-encoding": "gzip", "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0" },
  });
  show(
    `card page, 50 connections, ${SECONDS} s`,
    `${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms`,
  );
  await settle();
  show("memory after the load", await memory(name));
} finally {
  await podman("rm", "--force", "--time", "0", name);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

console.info("\nThe container image");
for (const [what, value] of rows) console.info(`  ${what.padEnd(44)} ${value}`);
