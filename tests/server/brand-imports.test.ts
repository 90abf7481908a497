import fs from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { requireViewer } from "~/.server/http/authz";
import { IMPORT_SCOPE_MESSAGES } from "~/.server/imports/plan";
import { runPendingImports } from "~/.server/imports/run";
import { db } from "~/.server/platform/db/client";
import { auditLog, brandAdministrators, brands, imports, profiles } from "~/.server/platform/db/schema";
import { loader as detailLoader } from "~/routes/admin/import-detail";
import { loader as reportLoader } from "~/routes/admin/import-report.csv";
import { createMember, getRequest, insertCard, run } from "./helpers";
import { importFile, preview, submit, upload } from "./importing";

/**
 * Imports that know brands: a Google Workspace export placed by its Org Unit
 * Path, every row put into one brand, and a brand administrator importing
 * into their own brands only.
 */

type Member = Awaited<ReturnType<typeof createMember>>;

const exported = (name: string) => fs.readFileSync(path.join("tests/fixtures/exports", name), "utf8");

async function brandOf(email: string) {
  const [card] = await db
    .select({ brand: brands.name })
    .from(profiles)
    .leftJoin(brands, eq(brands.id, profiles.companyBrandId))
    .where(sql`lower(${profiles.email}) = ${email}`);
  return card?.brand ?? null;
}

async function group() {
  const [aurora, borealis] = await db
    .insert(brands)
    .values([{ name: "Aurora Foods" }, { name: "Borealis Travel" }])
    .returning();
  const admin = await createMember({ email: "admin@example.com", firstName: "Ada", lastName: "Admin" });
  return { aurora: aurora!, borealis: borealis!, admin };
}

/** `person` as brand `brandId`'s administrator, as their next request sees them. */
async function runnerOf(person: Member, brandId: number): Promise<Member> {
  await db.insert(brandAdministrators).values({ userId: person.viewer.user.id, brandId });
  return { ...person, viewer: await requireViewer(getRequest("/", person.cookie)) };
}

const WORKSPACE_HEADER = "First Name [Required],Last Name [Required],Email Address [Required],Org Unit Path [Required]";

describe("imports that know brands", () => {
  it("places a Google Workspace export's people by their Org Unit Path: the deepest unit naming a brand, the root by domain", async () => {
    const { aurora, borealis, admin } = await group();
    await db.update(brands).set({ isDefault: true }).where(eq(brands.id, borealis.id));
    const file = [
      WORKSPACE_HEADER,
      "Ana,Silva,ana.silva@group.example,/Aurora Foods/Sales",
      "Ben,Berg,ben.berg@group.example,/Borealis Travel",
      "Cai,Chen,cai.chen@group.example,/",
      "Dan,Doe,dan.doe@group.example,/Contractors",
    ].join("\n");
    const id = await upload(admin, file);
    const shown = await preview(admin, id);
    expect(shown.format).toBe("a Google Workspace export");
    expect(shown.preview.rows.map((row) => [row.outcome, row.detail])).toEqual([
      ["create", expect.any(String)],
      ["create", expect.any(String)],
      ["create", expect.any(String)],
      [
        "error",
        'No brand is named in "/Contractors": add "Contractors" in Brand Management, or tick "Create brands that do not exist yet"',
      ],
    ]);
    expect((await submit(admin, id, "start")).status).toBe(302);
    await runPendingImports();
    expect(await brandOf("ana.silva@group.example")).toBe("Aurora Foods");
    expect(await brandOf("ben.berg@group.example")).toBe("Borealis Travel");
    // The root unit names no brand: the person lands where their address does (here, the default brand).
    expect(await brandOf("cai.chen@group.example")).toBe("Borealis Travel");
    expect(await brandOf("dan.doe@group.example")).toBeNull();
    expect(aurora.id).toBeGreaterThan(0);
  });

  it("creates the top unit of a path as a brand on request", async () => {
    const { admin } = await group();
    await importFile(admin, [WORKSPACE_HEADER, "Eve,Ek,eve.ek@group.example,/Cirrus Labs/Research"].join("\n"), {
      createBrands: true,
    });
    expect(await brandOf("eve.ek@group.example")).toBe("Cirrus Labs");
  });

  it("puts every row into the brand chosen, whatever the file says, and records the choice", async () => {
    const { aurora, admin } = await group();
    await importFile(admin, exported("google-workspace-users.csv"), { brandId: aurora.id });
    const [record] = await db.select().from(imports);
    expect(record?.brandId).toBe(aurora.id);
    const made = await db
      .select({ brandId: profiles.companyBrandId })
      .from(profiles)
      .where(sql`${profiles.email} like '%@northwind.example'`);
    expect(made.length).toBeGreaterThan(0);
    expect(new Set(made.map((card) => card.brandId))).toEqual(new Set([aurora.id]));
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.action, "import"));
    expect(entry?.changes).toMatchObject({ "every row into": [null, "Aurora Foods"] });
  });

  it("lets a brand administrator import into their brands only, and see only their own imports", async () => {
    const { aurora, borealis, admin } = await group();
    const lead = await runnerOf(await createMember({ firstName: "Lena", lastName: "Lead" }), aurora.id);
    const other = await insertCard({ email: "olga@group.example", companyBrandId: borealis.id, office: "Oslo" });
    const file = [
      "First name,Last name,Email,Brand,Office",
      "Ana,Silva,ana.silva@group.example,Aurora Foods,Lisbon",
      "Ben,Berg,ben.berg@group.example,Borealis Travel,Bergen",
      "Cai,Chen,cai.chen@group.example,,Porto",
      `Olga,Other,${other.email},Aurora Foods,Taken`,
      "Nia,New,nia.new@group.example,Nimbus Air,Nice",
    ].join("\n");
    const id = await upload(lead, file);
    const shown = await preview(lead, id);
    expect(shown.preview.rows.map((row) => [row.outcome, row.detail])).toEqual([
      ["create", expect.any(String)],
      ["error", IMPORT_SCOPE_MESSAGES.outside],
      ["error", IMPORT_SCOPE_MESSAGES.noBrand],
      ["error", IMPORT_SCOPE_MESSAGES.card],
      [
        "error",
        'Unknown brand "Nimbus Air": add it in Brand Management, or tick "Create brands that do not exist yet"',
      ],
    ]);
    // The report of rows that will not be imported lists the same four, with the same reasons.
    const report = (await reportLoader({
      request: getRequest(`/admin/import/${id}/report.csv`, lead.cookie),
      params: { id },
      context: undefined as never,
    } as never)) as Response;
    const reported = await report.text();
    for (const reason of [IMPORT_SCOPE_MESSAGES.outside, IMPORT_SCOPE_MESSAGES.noBrand, IMPORT_SCOPE_MESSAGES.card])
      expect(reported).toContain(reason);
    expect(reported.trim().split("\n")).toHaveLength(5);
    // Creating brands is not theirs to tick, and another brand is not theirs to choose for every row.
    expect((await submit(lead, id, "preview", { createBrands: true })).status).toBe(302);
    expect((await preview(lead, id)).preview.counts.error).toBe(4);
    const elsewhere = await submit(lead, id, "preview", { brandId: borealis.id });
    expect(elsewhere.status).toBe(400);

    expect((await submit(lead, id, "start", { overwrite: ["office"] })).status).toBe(302);
    await runPendingImports();
    expect(await brandOf("ana.silva@group.example")).toBe("Aurora Foods");
    for (const email of ["ben.berg@group.example", "cai.chen@group.example", "nia.new@group.example"]) {
      expect(await db.select().from(profiles).where(eq(profiles.email, email)), email).toEqual([]);
    }
    const [untouched] = await db.select().from(profiles).where(eq(profiles.id, other.id));
    expect(untouched).toMatchObject({ companyBrandId: borealis.id, office: "Oslo" });
    expect(await db.select({ name: brands.name }).from(brands).where(eq(brands.name, "Nimbus Air"))).toEqual([]);

    // Their imports are theirs; an administrator's is not found for them.
    const adminImport = await upload(admin, file);
    const hidden = await run(
      detailLoader,
      getRequest(`/admin/import/${adminImport}`),
      { id: adminImport },
      lead.viewer,
    );
    expect(hidden.status).toBe(404);
  });
});
