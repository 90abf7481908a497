import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/.server/platform/db/client";
import { brands, profiles } from "~/.server/platform/db/schema";
import { BASE, createMember, nextIp, run } from "../server/helpers";
import { HOSTILE_INPUT, paramsOf, ROUTES, type Row } from "./hostile-input";

/** What the database holds that a request could change. */
async function snapshot() {
  const tables = [
    "users",
    "accounts",
    "profiles",
    "brands",
    "site_settings",
    "email_links",
    "verifications",
    "identity_providers",
    "identity_provider_domains",
    "sso_logins",
  ];
  const parts: Record<string, unknown> = {};
  for (const table of tables) {
    parts[table] = await db.execute(sql.raw(`select * from ${table} order by 1`));
  }
  return JSON.stringify(parts, (_key, value) => (typeof value === "bigint" ? String(value) : value));
}

async function actors() {
  const admin = await createMember({ email: "admin@example.com", firstName: "Ada", lastName: "Admin" });
  const member = await createMember({ firstName: "Mem", lastName: "Ber" });
  const [brand] = await db.insert(brands).values({ name: "Acme" }).returning();
  const [card] = await db.select().from(profiles).where(sql`${profiles.email} = ${member.email}`);
  return { admin, member, brand: brand!, card: card! };
}

function fill(value: string, fixtures: Awaited<ReturnType<typeof actors>>) {
  return value
    .replaceAll("{card}", fixtures.card.username)
    .replaceAll("{cardId}", fixtures.card.id)
    .replaceAll("{email}", fixtures.member.email)
    .replaceAll("{brand}", String(fixtures.brand.id));
}

/** Runs a row as React Router would: the route's loader or action, with its params and the signed-in viewer. */
async function send(row: Row, fixtures: Awaited<ReturnType<typeof actors>>) {
  const entry = ROUTES.find((route) => route.path === row.route)!;
  const module = await import(path.resolve("app", entry.file));
  const url = new URL(fill(row.url, fixtures), BASE);
  const params = paramsOf(row.route, url.pathname);
  const actor = row.who === "admin" ? fixtures.admin : row.who === "member" ? fixtures.member : null;
  const headers = new Headers({ origin: BASE, "x-namecard-client-ip": nextIp() });
  if (actor) headers.set("cookie", actor.cookie);
  let request: Request;
  if (row.body) {
    if (row.body.type) headers.set("content-type", row.body.type);
    request = new Request(url, { method: "POST", headers, body: row.body.text });
    // A string body makes its own Content-Type: a body sent without one must arrive without one.
    if (!row.body.type) request.headers.delete("content-type");
  } else if (row.method === "POST") {
    const form = new FormData();
    for (const [name, value] of Object.entries(row.form ?? {})) form.set(name, fill(value, fixtures));
    if (row.route === "api/auth/*") {
      headers.set("content-type", "application/json");
      request = new Request(url, { method: "POST", headers, body: JSON.stringify(Object.fromEntries(form)) });
    } else {
      request = new Request(url, { method: "POST", headers, body: form });
    }
  } else {
    request = new Request(url, { headers });
  }
  const handler = row.method === "POST" ? module.action : module.loader;
  // A page without a loader reads nothing on the server: React Router renders it (200).
  if (!handler && row.method === "GET") return { status: 200 };
  expect(handler, `${entry.file} has an action`).toBeTypeOf("function");
  return run(handler, request, params, actor?.viewer);
}

describe("the hostile-input table", () => {
  it("has rows for every route in app/routes.ts", () => {
    const covered = new Set(HOSTILE_INPUT.map((row) => row.route));
    const missing = ROUTES.filter((route) => !covered.has(route.path)).map((route) => `${route.path} (${route.file})`);
    expect(missing, "routes without hostile-input rows in tests/security/hostile-input.ts").toEqual([]);
  });

  it("names only routes that exist, and explains every row that does not expect a 4xx", () => {
    const known = new Set(ROUTES.map((route) => route.path));
    expect(HOSTILE_INPUT.filter((row) => !known.has(row.route)).map((row) => row.route)).toEqual([]);
    expect(HOSTILE_INPUT.filter((row) => (row.status < 400 || row.status > 499) && !row.why)).toEqual([]);
  });

  // Any console.error fails the test (tests/support/console.ts): no row may log one.
  describe("each route answers as its rows say, stores nothing and logs no error", () => {
    const byRoute = new Map<string, Row[]>();
    for (const row of HOSTILE_INPUT) byRoute.set(row.route, [...(byRoute.get(row.route) ?? []), row]);
    it.each([...byRoute.keys()].map((route) => ({ route: route || "(index)", rows: byRoute.get(route)! })))(
      "$route",
      async ({ rows }) => {
        const fixtures = await actors();
        for (const row of rows) {
          const before = await snapshot();
          const label = `${row.method} ${row.url} ${row.body?.name ?? JSON.stringify(row.form ?? {}).slice(0, 120)}`;
          const result = await send(row, fixtures);
          expect(result.status, label).toBe(row.status);
          expect(await snapshot(), `${label} changed the database`).toBe(before);
        }
      },
      120_000,
    );
  });
});
