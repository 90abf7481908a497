// `npm run bench:directory`: fills a scratch database with 100,000 generated
// profiles across 20 brands, then prints p50 / p95 / p99 of the server search
// and of full HTTP requests for several query shapes. Embedded PGlite by
// default; PostgreSQL too when DATABASE_URL is given (its database is emptied
// and filled, so point it at a scratch database).
//
//   npm run bench:directory
//   DATABASE_URL=postgresql://user:pass@127.0.0.1/scratch npm run bench:directory
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { generateRandomString, hashPassword } from "better-auth/crypto";
import { sql } from "drizzle-orm";
import { benchServerEnv, freePort } from "./free-port";

const PROFILES = Number(process.env.BENCH_PROFILES ?? 100_000);
const BRANDS = 20;
const RUNS = Number(process.env.BENCH_RUNS ?? 60);
const HTTP_RUNS = Number(process.env.BENCH_HTTP_RUNS ?? 30);
const BATCH = 2_000;
const DATA_DIR = path.resolve("bench/.data");
const BENCH_EMAIL = "bench.admin@example.com";
const BENCH_PASSWORD = "bench password 123";
const postgresUrl = process.env.DATABASE_URL || undefined;
/** The directory as an administrator reads it: every detail of every card. */
const BENCH_ADMIN = { user: { id: "bench-admin" }, role: "admin" as const };

const PORT = await freePort();

process.env.DATA_DIR = DATA_DIR;
process.env.ADMIN_EMAILS = BENCH_EMAIL;
process.env.PUBLIC_URL = `http://localhost:${PORT}`;

const FIRST = [
  "Maria",
  "James",
  "Sofia",
  "Liam",
  "Aisha",
  "Noah",
  "Chen",
  "Olivia",
  "Mateo",
  "Zoë",
  "Lucas",
  "Emma",
  "Arjun",
  "Ingrid",
  "Omar",
  "Léa",
  "Kenji",
  "Hannah",
  "Diego",
  "Freya",
];
const LAST = [
  "Garcia",
  "Smith",
  "Müller",
  "Rossi",
  "Nguyen",
  "Kowalski",
  "Silva",
  "Dubois",
  "Haddad",
  "Olsen",
  "Brown",
  "Tanaka",
  "Novak",
  "Costa",
  "Weber",
  "Moreno",
  "Bello",
  "Fischer",
  "Lindqvist",
  "Yılmaz",
];
const TITLES = [
  "Engineer",
  "Designer",
  "Account Executive",
  "Analyst",
  "Manager",
  "Director",
  "Consultant",
  "Coordinator",
];

/** A small deterministic generator, so every run fills the same data. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function summarize(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) };
}

const DEPARTMENTS = ["Logistics", "Sales", "Engineering", "Finance", "People", "Legal", "Marketing", "Support"];
const OFFICES = ["Lisbon", "Porto", "Madrid", "Berlin", "Paris", "Milan", "Warsaw", "Dublin", "Remote"];

const SHAPES: { name: string; q: string; brand: boolean; facets?: boolean }[] = [
  { name: "empty", q: "", brand: false },
  { name: "department + office", q: "", brand: false, facets: true },
  { name: "empty + brand", q: "", brand: true },
  { name: "one letter 'a'", q: "a", brand: false },
  { name: "one letter + brand", q: "a", brand: true },
  { name: "common name 'maria'", q: "maria", brand: false },
  { name: "common name + brand", q: "maria", brand: true },
  { name: "rare email 'x7k2q'", q: "x7k2q", brand: false },
  { name: "rare email + brand", q: "x7k2q", brand: true },
];

async function main() {
  if (!postgresUrl) fs.mkdirSync(DATA_DIR, { recursive: true });
  const { connectDatabase } = await import("../app/.server/platform/db/connect");
  const { db } = await import("../app/.server/platform/db/client");
  const { accounts, brands, profiles, users } = await import("../app/.server/platform/db/schema");
  const { directoryFacets, parseDirectoryQuery, searchDirectory } = await import("../app/.server/profiles/directory");

  const handle = await connectDatabase();
  const engine = handle.kind === "pglite" ? "PGlite (embedded)" : "PostgreSQL";
  console.info(
    `\nNamecard directory benchmark — ${engine}, ${PROFILES.toLocaleString("en")} profiles, ${BRANDS} brands\n`,
  );

  // The data is reused when it holds the generated profiles and the account to
  // sign in with (signing in gives that account a card of its own: not counted).
  const [{ count } = { count: 0 }] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(profiles)
    .where(sql`${profiles.email} <> ${BENCH_EMAIL}`);
  const [{ accountCount } = { accountCount: 0 }] = await db
    .select({ accountCount: sql<number>`count(*)::int` })
    .from(users)
    .where(sql`${users.email} = ${BENCH_EMAIL}`);
  const [{ departments } = { departments: 0 }] = await db
    .select({ departments: sql<number>`count(${profiles.department})::int` })
    .from(profiles);
  if (count !== PROFILES || accountCount !== 1 || departments === 0) {
    const started = performance.now();
    await db.execute(sql`truncate profiles, profile_views, brands, users, sessions, accounts restart identity cascade`);
    const brandRows = await db
      .insert(brands)
      .values(
        Array.from({ length: BRANDS }, (_, i) => ({
          name: `Brand ${String(i + 1).padStart(2, "0")}`,
          primaryColor: "#2563eb",
          secondaryColor: "#7c3aed",
        })),
      )
      .returning({ id: brands.id });
    const next = random(42);
    for (let offset = 0; offset < PROFILES; offset += BATCH) {
      const rows = Array.from({ length: Math.min(BATCH, PROFILES - offset) }, (_, i) => {
        const n = offset + i;
        const first = FIRST[Math.floor(next() * FIRST.length)]!;
        const last = LAST[Math.floor(next() * LAST.length)]!;
        const tag = Math.floor(next() * 36 ** 6)
          .toString(36)
          .padStart(6, "0");
        return {
          firstName: first,
          lastName: last,
          // Unique by construction; one person carries the rare fragment searched below.
          email:
            `${first}.${last}.${n === 77_777 ? "x7k2q" : tag}${n.toString(36)}@group${n % 7}.example`.toLowerCase(),
          username: `${first}.${last}.${n}`
            .toLowerCase()
            .normalize("NFKD")
            .replace(/[^a-z0-9.]/g, ""),
          title: TITLES[n % TITLES.length],
          bio:
            n % 3 === 0
              ? `Works with teams across the group on ${TITLES[(n + 3) % TITLES.length]!.toLowerCase()} topics.`
              : null,
          companyBrandId: brandRows[n % BRANDS]!.id,
          department: DEPARTMENTS[n % DEPARTMENTS.length],
          office: OFFICES[Math.floor(next() * OFFICES.length)],
          viewCount: Math.floor(next() * 50),
        };
      });
      await db.insert(profiles).values(rows);
      process.stdout.write(`\r  filling… ${Math.min(offset + BATCH, PROFILES).toLocaleString("en")}`);
    }
    // One account to sign in with for the HTTP part.
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
    await db.execute(sql`analyze`);
    console.info(`\r  filled in ${((performance.now() - started) / 1000).toFixed(1)} s${" ".repeat(20)}\n`);
  }

  const [brand] = await db.select({ id: brands.id }).from(brands).limit(1);
  const urlFor = (shape: (typeof SHAPES)[number]) => {
    const params = new URLSearchParams();
    if (shape.q) params.set("q", shape.q);
    if (shape.brand) params.set("brand", String(brand!.id));
    if (shape.facets) {
      params.set("department", "Logistics");
      params.set("office", "Lisbon");
    }
    return `/directory${params.size ? `?${params}` : ""}`;
  };

  const results: Record<
    string,
    {
      search: ReturnType<typeof summarize>;
      facets: ReturnType<typeof summarize>;
      total: number;
      http?: ReturnType<typeof summarize>;
      data?: ReturnType<typeof summarize>;
    }
  > = {};
  for (const shape of SHAPES) {
    const query = parseDirectoryQuery(new URL(`http://bench${urlFor(shape)}`), { canFilterStatus: true });
    let total = 0;
    await searchDirectory(query, { includeClaimStatus: true, viewer: BENCH_ADMIN }); // warm up
    const samples: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      total = (await searchDirectory(query, { includeClaimStatus: true, viewer: BENCH_ADMIN })).total;
      samples.push(performance.now() - started);
    }
    // The facets' counts as a request that finds none kept (after a change to any card) pays them:
    // this process does not listen for changes, so it keeps nothing and reads every time.
    const facetSamples: number[] = [];
    for (let run = 0; run < Math.min(RUNS, 20); run++) {
      const started = performance.now();
      await directoryFacets(query);
      facetSamples.push(performance.now() - started);
    }
    results[shape.name] = { search: summarize(samples), facets: summarize(facetSamples), total };
  }
  await handle.close();

  // Full HTTP requests against the built server on the same data.
  if (!fs.existsSync("build/server/index.js")) {
    console.warn("  (no build: run `npm run build` to include full HTTP request timings)");
  } else {
    const server = spawn(process.execPath, ["server.js"], {
      env: benchServerEnv({ port: PORT, dataDir: DATA_DIR, databaseUrl: postgresUrl }),
      stdio: "ignore",
    });
    try {
      for (let attempt = 0; attempt < 200; attempt++) {
        try {
          if ((await fetch(`http://localhost:${PORT}/healthz`)).ok) break;
        } catch {
          // starting
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const signIn = await fetch(`http://localhost:${PORT}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: `http://localhost:${PORT}` },
        body: JSON.stringify({ email: BENCH_EMAIL, password: BENCH_PASSWORD }),
      });
      const cookie = signIn.headers
        .getSetCookie()
        .map((value) => value.split(";")[0])
        .join("; ");
      for (const shape of SHAPES) {
        const url = urlFor(shape);
        const timed = async (target: string) => {
          await fetch(`http://localhost:${PORT}${target}`, { headers: { cookie } }).then((r) => r.arrayBuffer());
          const samples: number[] = [];
          for (let run = 0; run < HTTP_RUNS; run++) {
            const started = performance.now();
            const response = await fetch(`http://localhost:${PORT}${target}`, { headers: { cookie } });
            await response.arrayBuffer();
            if (!response.ok) throw new Error(`${target}: ${response.status}`);
            samples.push(performance.now() - started);
          }
          return summarize(samples);
        };
        results[shape.name]!.http = await timed(url);
        const dataUrl = url.replace("/directory", "/directory.data");
        results[shape.name]!.data = await timed(dataUrl);
      }
    } finally {
      server.kill("SIGTERM");
      await new Promise((resolve) => server.once("exit", resolve));
    }
  }

  const ms = (value: number | undefined) => (value === undefined ? "—" : value.toFixed(1).padStart(6));
  console.info(
    "  shape                     matches |  search p50   p95   p99 | facets p50   p95 |  page p50   p95   p99 |  data p50   p95   p99  (ms)",
  );
  for (const [name, result] of Object.entries(results)) {
    console.info(
      `  ${name.padEnd(24)} ${String(result.total).padStart(8)} | ${ms(result.search.p50)} ${ms(result.search.p95)} ${ms(result.search.p99)} | ${ms(result.facets.p50)} ${ms(result.facets.p95)} | ${ms(result.http?.p50)} ${ms(result.http?.p95)} ${ms(result.http?.p99)} | ${ms(result.data?.p50)} ${ms(result.data?.p95)} ${ms(result.data?.p99)}`,
    );
  }
  console.info("\n  Target: server search p95 under 50 ms.\n");
}

try {
  await main();
} catch (error) {
  console.error(`\nBenchmark failed: ${(error as Error).message.slice(0, 500)}`);
  process.exit(1);
}
