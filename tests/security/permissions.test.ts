import path from "node:path";
import { inArray, isNull, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { requireAdministration, requireViewer, type Viewer } from "~/.server/http/authz";
import { db } from "~/.server/platform/db/client";
import { brandAdministrators, brands, profiles, usernameRedirects } from "~/.server/platform/db/schema";
import { BASE, createMember, getRequest, nextIp, run } from "../server/helpers";
import { addressOf, paramsOf, ROUTES } from "./hostile-input";
import { PERMISSION_TABLE, type PermissionRow, type Who } from "./permission-table";

/** The viewers, in the order each row tries them: those refused first, so a refusal is checked on what was. */
const VIEWERS: Who[] = ["member", "brandB", "brandA", "admin"];

const SENTINELS = {
  a: { id: "0a0a0a0a-0000-4000-8000-00000000000a", username: "sentinel.a" },
  b: { id: "0b0b0b0b-0000-4000-8000-00000000000b", username: "sentinel.b" },
};

/** Two brands, a sentinel card in each, and the four viewers. */
async function fixtures() {
  const [brandA, brandB] = await db
    .insert(brands)
    .values([{ name: "Brand A" }, { name: "Brand B" }])
    .returning();
  const ids = { a: brandA!.id, b: brandB!.id };
  await seedSentinels(ids);
  const people = {
    member: await createMember({ firstName: "Mia", lastName: "Member" }),
    brandA: await createMember({ firstName: "Ana", lastName: "Runs-A" }),
    brandB: await createMember({ firstName: "Bo", lastName: "Runs-B" }),
    admin: await createMember({ email: "admin@example.com", firstName: "Ada", lastName: "Admin" }),
  };
  for (const [who, brand] of [
    ["member", ids.a],
    ["brandA", ids.a],
    ["brandB", ids.b],
  ] as const) {
    await db.update(profiles).set({ companyBrandId: brand }).where(sql`${profiles.id} = ${people[who].profile.id}`);
  }
  await db.insert(brandAdministrators).values([
    { userId: people.brandA.id, brandId: ids.a },
    { userId: people.brandB.id, brandId: ids.b },
  ]);
  const viewers = {} as Record<Who, { cookie: string; viewer: Viewer }>;
  for (const who of VIEWERS) {
    const { cookie } = people[who];
    viewers[who] = { cookie, viewer: await requireViewer(getRequest("/", cookie)) };
  }
  return { brands: ids, viewers };
}

/** The sentinel cards as they were (and no other card nobody owns), after a row changed, made or deleted cards. */
async function seedSentinels(ids: { a: number; b: number }) {
  const all = [SENTINELS.a, SENTINELS.b];
  // A brand a row deleted comes back, with its administrator.
  await db
    .insert(brands)
    .values([
      { id: ids.a, name: "Brand A" },
      { id: ids.b, name: "Brand B" },
    ])
    .onConflictDoNothing();
  // The cards nobody owns: the sentinels, and any a row made.
  await db.delete(profiles).where(isNull(profiles.userId));
  await db.delete(usernameRedirects).where(
    inArray(
      usernameRedirects.username,
      all.map((card) => card.username),
    ),
  );
  await db.insert(profiles).values(
    (["a", "b"] as const).map((key) => ({
      ...SENTINELS[key],
      firstName: "Sentinel",
      lastName: key.toUpperCase(),
      email: `${SENTINELS[key].username}@example.org`,
      companyBrandId: ids[key],
    })),
  );
}

type Fixtures = Awaited<ReturnType<typeof fixtures>>;

function fill(value: string, { brands: ids }: Fixtures) {
  return value
    .replaceAll("{cardAId}", SENTINELS.a.id)
    .replaceAll("{cardBId}", SENTINELS.b.id)
    .replaceAll("{cardA}", SENTINELS.a.username)
    .replaceAll("{cardB}", SENTINELS.b.username)
    .replaceAll("{brandA}", String(ids.a))
    .replaceAll("{brandB}", String(ids.b));
}

/** What the database holds that a refused request must leave as it was. */
async function snapshot() {
  const parts: Record<string, unknown> = {};
  for (const table of ["users", "profiles", "brands", "brand_administrators", "site_settings", "invitations"]) {
    parts[table] = await db.execute(sql.raw(`select * from ${table} order by 1`));
  }
  return JSON.stringify(parts, (_key, value) => (typeof value === "bigint" ? String(value) : value));
}

/**
 * Sends a row as React Router would for this viewer: the administration
 * layout's guard first for its pages, then the route's loader or action.
 */
async function send(row: PermissionRow, who: Who, fixtures: Fixtures): Promise<number> {
  const entry = ROUTES.find((route) => route.path === row.route)!;
  const module = await import(path.resolve("app", entry.file));
  const url = new URL(fill(row.url || addressOf(row.route), fixtures), BASE);
  const { cookie, viewer } = fixtures.viewers[who];
  const headers = new Headers({ origin: BASE, "x-namecard-client-ip": nextIp(), cookie });
  let request: Request;
  if (row.method === "POST") {
    const form = new FormData();
    for (const [name, value] of Object.entries(row.form ?? {})) {
      for (const one of [value].flat()) form.append(name, fill(one, fixtures));
    }
    request = new Request(url, { method: "POST", headers, body: form });
  } else {
    request = new Request(url, { headers });
  }
  if (entry.file.startsWith("routes/admin/")) {
    try {
      await requireAdministration(request);
    } catch (thrown) {
      if (thrown instanceof Response) return thrown.status;
      throw thrown;
    }
  }
  const handler = row.method === "POST" ? module.action : module.loader;
  if (!handler && row.method === "GET") return 200;
  const params = paramsOf(row.route, url.pathname);
  return (await run(handler, request, params, viewer)).status;
}

describe("the permission table", () => {
  it("has rows for every route in app/routes.ts, and names only routes that exist", () => {
    const covered = new Set(PERMISSION_TABLE.map((row) => row.route));
    const missing = ROUTES.filter((route) => !covered.has(route.path)).map((route) => `${route.path} (${route.file})`);
    expect(missing, "routes without rows in tests/security/permission-table.ts").toEqual([]);
    const known = new Set(ROUTES.map((route) => route.path));
    expect(PERMISSION_TABLE.filter((row) => !known.has(row.route)).map((row) => row.route)).toEqual([]);
  });

  const byRoute = new Map<string, PermissionRow[]>();
  for (const row of PERMISSION_TABLE) byRoute.set(row.route, [...(byRoute.get(row.route) ?? []), row]);
  it.each([...byRoute.keys()].map((route) => ({ route: route || "(index)", rows: byRoute.get(route)! })))(
    "$route answers a member, each brand's administrator and the administrator as the table says",
    async ({ rows }) => {
      const state = await fixtures();
      for (const row of rows) {
        const answers = {} as Record<Who, number>;
        for (const who of VIEWERS) {
          const before = await snapshot();
          answers[who] = await send(row, who, state);
          // A refusal (or a card of another brand, not found) changes nothing.
          if (answers[who] === 403 || answers[who] === 404) expect(await snapshot(), `${who} ${row.url}`).toBe(before);
          if (row.method === "POST") await seedSentinels(state.brands);
        }
        const label = `${row.method} ${row.url || row.route} ${JSON.stringify(row.form ?? {}).slice(0, 100)}`;
        if (row.expect === "alike") {
          expect(new Set(Object.values(answers)).size, `${label}: ${JSON.stringify(answers)}`).toBe(1);
        } else {
          expect(answers, `${label}: ${JSON.stringify(answers)}`).toEqual(row.expect);
        }
      }
    },
    180_000,
  );
});
