import { describe, expect, it } from "vitest";
import { importPage, postImport, uploadImport } from "../support/imports";
import { ON_POSTGRES, startedProcesses } from "../support/process-suite";
import { migratedDataDir, SERVER_BUILT, signedInMember, startServer, stop } from "../support/server-process";

/**
 * An import on the embedded database shares the one database connection with
 * every request. While it runs, `/healthz` tells the truth (200: the server
 * can save) and pages keep answering between its batches: a load balancer
 * never takes the only instance out for an import, and nobody waits for the
 * import to end to see a card. How long they take is bench/import.ts's to say.
 */
const ROWS = 2_000;
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";

const COLUMNS = ["firstName", "lastName", "email", "title", "phone"];

const started = startedProcesses("the import-while-serving tests");

function peopleFile(title: string) {
  const lines = ["First name;Last name;E-mail;Job title;Phone"];
  for (let n = 0; n < ROWS; n++) {
    lines.push(`Person;Number ${n};serving.${n}@example.org;${title} of things;+49 30 ${String(1000000 + n)}`);
  }
  return lines.join("\r\n");
}

async function timed(url: string, headers: Record<string, string> = {}) {
  const from = performance.now();
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - from };
}

describe.skipIf(ON_POSTGRES || !SERVER_BUILT)("an import on the embedded database", () => {
  it("leaves /healthz at 200 and cards answering between its batches while it runs", async () => {
    const server = await startServer({ dataDir: await migratedDataDir() });
    started.push(server);
    const cookie = await signedInMember(server, "admin@example.com", { first: "Ada", last: "Admin" });
    await signedInMember(server, "on.card@example.com", { first: "On", last: "Card" });

    // The heavier import: every row changes a card that exists (its old values read, an audit entry each).
    const admin = { server, cookie };
    const first = await uploadImport(admin, peopleFile("Engineer"));
    await postImport(admin, first, "start", { columns: COLUMNS });
    await expect.poll(async () => (await importPage(admin, first)).finished, { timeout: 120_000 }).toBe(true);
    const location = await uploadImport(admin, peopleFile("Director"));
    await postImport(admin, location, "start", { columns: COLUMNS, overwrite: ["title"] });

    const health: { status: number; ms: number }[] = [];
    const cards: { status: number; ms: number }[] = [];
    while (!(await importPage(admin, location)).finished) {
      health.push(await timed(`${server.url}/healthz`));
      cards.push(await timed(`${server.url}/profile/on.card`, { "user-agent": BROWSER }));
    }
    const slowest = (probes: { ms: number }[]) => Math.max(...probes.map((probe) => probe.ms)).toFixed(0);
    console.info(
      `${health.length} probes during the import: /healthz at most ${slowest(health)} ms, a card ${slowest(cards)} ms`,
    );
    // Answered one after another while the import still ran: none of them waited for it to end.
    expect(health.length).toBeGreaterThan(3);
    expect(health.filter((probe) => probe.status !== 200)).toEqual([]);
    expect(cards.filter((probe) => probe.status !== 200)).toEqual([]);
    expect(await stop(server)).toEqual({ code: 0, signal: null });
  }, 300_000);
});
