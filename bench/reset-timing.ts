// `npm run bench:reset-timing`: how long the forgotten-password answer takes for an
// account that exists and for one that does not, asked in turns against the built
// server on the embedded database, so both meet the same machine. The two should
// not differ by more than the noise between runs of one.
//
//   npm run build && npm run bench:reset-timing
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { benchServerEnv, freePort } from "./free-port";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 100);
const port = await freePort();
const base = `http://localhost:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "namecard-reset-timing-"));
const server = spawn(process.execPath, ["server.js"], {
  env: { ...benchServerEnv({ port, dataDir }), TRUST_PROXY: "loopback", ADMIN_EMAILS: "admin@example.com" },
  stdio: ["ignore", "pipe", "inherit"],
});
await new Promise<void>((resolve, reject) => {
  server.stdout.on("data", (chunk: Buffer) => {
    if (chunk.toString().includes("Namecard is listening")) resolve();
  });
  server.once("exit", () => reject(new Error("the server stopped before it listened")));
});

const post = (pathname: string, body: unknown, ip: string) =>
  fetch(`${base}${pathname}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base, "x-forwarded-for": ip },
    body: JSON.stringify(body),
  });

try {
  // One account per round: each address may ask for three mails an hour.
  for (let round = 0; round < ROUNDS; round++) {
    const signedUp = await post(
      "/api/auth/sign-up/email",
      { firstName: "Known", lastName: "Person", email: `known.${round}@example.com`, password: "a long enough phrase" },
      `10.199.${Math.floor(round / 250)}.${(round % 250) + 1}`,
    );
    if (!signedUp.ok) throw new Error(`sign-up ${round}: ${signedUp.status} ${await signedUp.text()}`);
  }
  const times: Record<"known" | "unknown", number[]> = { known: [], unknown: [] };
  for (let round = 0; round < ROUNDS; round++) {
    // A new address of each kind per round: the per-address mail quota never answers instead.
    // Each round asks in the other order, so neither kind always follows the other.
    for (const kind of round % 2 ? (["known", "unknown"] as const) : (["unknown", "known"] as const)) {
      const email = `${kind === "known" ? "known" : "nobody"}.${round}@example.com`;
      const started = performance.now();
      const response = await post(
        "/api/auth/request-password-reset",
        { email },
        `10.${201 + (round % 50)}.${Math.floor(round / 250)}.${(round % 250) + 1}`,
      );
      await response.arrayBuffer();
      const elapsed = performance.now() - started;
      if (response.status === 200) times[kind].push(elapsed);
    }
  }
  const quantile = (values: number[], q: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  };
  console.info(`forgotten-password answers, ${ROUNDS} rounds in turns (ms; 429s left out):`);
  for (const kind of ["known", "unknown"] as const) {
    const values = times[kind];
    console.info(
      `  ${kind.padEnd(8)} n=${String(values.length).padStart(4)}  p50 ${quantile(values, 0.5).toFixed(2)}  p90 ${quantile(values, 0.9).toFixed(2)}`,
    );
  }
} finally {
  server.kill("SIGTERM");
}
