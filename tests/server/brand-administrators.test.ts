import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { BRAND_ADMINISTRATOR_MESSAGES } from "~/.server/accounts/brand-administration";
import { mustUseSecondFactor } from "~/.server/accounts/second-factor";
import { requireViewer } from "~/.server/http/authz";
import { readToast } from "~/.server/http/toast";
import { leadsOf } from "~/.server/leads/access";
import { db } from "~/.server/platform/db/client";
import { auditLog, brandDomains, brands, invitations, profiles, siteSettings } from "~/.server/platform/db/schema";
import { MANAGER_MESSAGES } from "~/.server/profiles/managers";
import { BRAND_MOVE_MESSAGES } from "~/.server/profiles/update-profile";
import { loader as analyticsLoader } from "~/routes/admin/analytics";
import { loader as auditLoader } from "~/routes/admin/audit";
import { action as brandsAction, loader as brandsLoader } from "~/routes/admin/brands";
import { loader as analyticsCsv } from "~/routes/admin/export/analytics.csv";
import { loader as dashboardCsv } from "~/routes/admin/export/dashboard.csv";
import { action as profilesAction, loader as profilesLoader } from "~/routes/admin/profiles";
import { action as createAction } from "~/routes/admin/profiles-create";
import { cookieFrom, createMember, getRequest, insertCard, multipartRequest, run, saveOwnCard } from "./helpers";

/**
 * Brands as units of administration (docs/decisions/044-brand-administrators.md): an administrator
 * makes someone the administrator of some brands; they run those brands' cards, look, figures and
 * record, and see nothing of other brands.
 */

type Member = Awaited<ReturnType<typeof createMember>>;

async function send(viewer: Member, fields: Record<string, string | string[]>) {
  const form = new FormData();
  for (const [name, value] of Object.entries({ redirectTo: "/admin/profiles", ...fields })) {
    for (const one of [value].flat()) form.append(name, one);
  }
  const answer = await run(profilesAction, await multipartRequest("/admin/profiles", form), {}, viewer.viewer);
  return { ...answer, toast: await readToast(cookieFrom(answer.headers)) };
}

async function domainsOf(brandId: number) {
  const rows = await db
    .select({ domain: brandDomains.domain })
    .from(brandDomains)
    .where(eq(brandDomains.brandId, brandId))
    .orderBy(brandDomains.domain);
  return rows.map((row) => row.domain);
}

/** The person as their next request sees them. */
async function fresh(person: Member): Promise<Member> {
  return { ...person, viewer: await requireViewer(getRequest("/", person.cookie)) };
}

async function group() {
  const [aurora, borealis] = await db
    .insert(brands)
    .values([{ name: "Aurora Foods" }, { name: "Borealis Travel" }])
    .returning();
  const admin = await createMember({ email: "admin@example.com", firstName: "Ada", lastName: "Admin" });
  const lead = await createMember({ firstName: "Lena", lastName: "Lead" });
  const auroraCard = await insertCard({ firstName: "Aki", lastName: "Aurora", companyBrandId: aurora!.id });
  const borealisCard = await insertCard({ firstName: "Bea", lastName: "Borealis", companyBrandId: borealis!.id });
  await db.update(profiles).set({ companyBrandId: aurora!.id }).where(eq(profiles.id, lead.profile.id));
  return { aurora: aurora!, borealis: borealis!, admin, lead, auroraCard, borealisCard };
}

describe("brand administrators", () => {
  it("are appointed from the person's row, at once, with one audit entry naming the brands", async () => {
    const { aurora, borealis, admin, lead } = await group();
    const given = await send(admin, {
      intent: "brand-administration",
      id: lead.profile.id,
      brandIds: [String(aurora.id)],
    });
    expect(given.toast?.text).toBe("Lena Lead now runs Aurora Foods.");
    expect((await fresh(lead)).viewer.brandIds).toEqual([aurora.id]);

    await send(admin, {
      intent: "brand-administration",
      id: lead.profile.id,
      brandIds: [String(aurora.id), String(borealis.id)],
    });
    const taken = await send(admin, { intent: "brand-administration", id: lead.profile.id });
    expect(taken.toast?.text).toBe("Lena Lead no longer runs a brand.");
    expect((await fresh(lead)).viewer.brandIds).toEqual([]);

    const entries = await db
      .select({ changes: auditLog.changes })
      .from(auditLog)
      .where(eq(auditLog.action, "brand-administrator"))
      .orderBy(auditLog.id);
    expect(entries.map((entry) => entry.changes)).toEqual([
      { brands: [null, "Aurora Foods"] },
      { brands: ["Aurora Foods", "Aurora Foods, Borealis Travel"] },
      { brands: ["Aurora Foods, Borealis Travel", null] },
    ]);
  });

  it("are appointed and dismissed from the brand's page too, by username or address, by administrators only", async () => {
    const { aurora, admin, lead } = await group();
    const post = async (viewer: Member, fields: Record<string, string>) => {
      const form = new FormData();
      for (const [name, value] of Object.entries({ id: String(aurora.id), ...fields })) form.set(name, value);
      return run(brandsAction, await multipartRequest("/admin/brands", form), {}, viewer.viewer);
    };
    expect((await post(admin, { intent: "appoint", person: lead.email.toUpperCase() })).status).toBe(302);
    expect((await fresh(lead)).viewer.brandIds).toEqual([aurora.id]);
    const page = await run(brandsLoader, getRequest("/admin/brands"), {}, admin.viewer);
    expect((page.data as { brands: { administrators: { name: string }[] }[] }).brands[0]?.administrators).toEqual([
      expect.objectContaining({ name: "Lena Lead" }),
    ]);

    const runner = await fresh(lead);
    expect((await post(runner, { intent: "dismiss", person: lead.email })).status).toBe(403);
    const unknown = await post(admin, { intent: "appoint", person: "nobody.here" });
    expect(unknown.status).toBe(400);
    expect(unknown.data).toMatchObject({ fieldErrors: { person: [BRAND_ADMINISTRATOR_MESSAGES.unknownPerson] } });

    expect((await post(admin, { intent: "dismiss", person: `@${lead.profile.username}` })).status).toBe(302);
    expect((await fresh(lead)).viewer.brandIds).toEqual([]);
  });

  it("are people with an account: a card nobody claimed, or an administrator, is refused and nothing changes", async () => {
    const { aurora, admin, auroraCard } = await group();
    const unclaimed = await send(admin, {
      intent: "brand-administration",
      id: auroraCard.id,
      brandIds: [String(aurora.id)],
    });
    expect(unclaimed.status).toBe(400);
    expect(unclaimed.data).toMatchObject({ fieldErrors: { brandIds: [BRAND_ADMINISTRATOR_MESSAGES.unclaimed] } });
    const administrator = await send(admin, {
      intent: "brand-administration",
      id: admin.profile.id,
      brandIds: [String(aurora.id)],
    });
    expect(administrator.data).toMatchObject({
      fieldErrors: { brandIds: [BRAND_ADMINISTRATOR_MESSAGES.administrator] },
    });
    expect(await db.select().from(auditLog).where(eq(auditLog.action, "brand-administrator"))).toEqual([]);
  });

  it("see only their brands' people, brands, figures, exports and audit entries", async () => {
    const { aurora, admin, lead, auroraCard, borealisCard } = await group();
    await send(admin, { intent: "brand-administration", id: lead.profile.id, brandIds: [String(aurora.id)] });
    // Each brand's card is changed by the administrator: two entries, one per brand.
    for (const card of [auroraCard, borealisCard]) {
      await send(admin, { intent: "deactivate", id: card.id });
    }
    const runner = await fresh(lead);

    const list = await run(profilesLoader, getRequest("/admin/profiles"), {}, runner.viewer);
    const names = (list.data as { management: { rows: { lastName: string }[] } }).management.rows.map(
      (row) => row.lastName,
    );
    expect(names.sort()).toEqual(["Aurora", "Lead"]);

    const brandPage = await run(brandsLoader, getRequest("/admin/brands"), {}, runner.viewer);
    expect((brandPage.data as { brands: { name: string }[] }).brands.map((brand) => brand.name)).toEqual([
      "Aurora Foods",
    ]);

    const figures = await run(analyticsLoader, getRequest("/admin/analytics"), {}, runner.viewer);
    expect(figures.data).toMatchObject({
      report: { tiles: { activeProfiles: 1, deactivatedProfiles: 1, activeBrands: 1 } },
    });

    const audit = await run(auditLoader, getRequest("/admin/audit"), {}, runner.viewer);
    const targets = (audit.data as { entries: { target: { label: string } }[] }).entries.map(
      (entry) => entry.target.label,
    );
    expect(targets.some((label) => label.includes("Aurora"))).toBe(true);
    expect(targets.some((label) => label.includes("Borealis"))).toBe(false);

    for (const [loader, path] of [
      [dashboardCsv, "/admin/export/dashboard.csv"],
      [analyticsCsv, "/admin/export/analytics.csv"],
    ] as const) {
      const response = (await loader({ request: getRequest(path, runner.cookie) } as never)) as Response;
      const text = await response.text();
      expect(text, path).not.toContain("Borealis");
    }
    const dashboard = (await dashboardCsv({
      request: getRequest("/admin/export/dashboard.csv", runner.cookie),
    } as never)) as Response;
    expect(await dashboard.text()).toContain("Aurora");
  });

  it("change their brands' cards but never move one out of them, and another brand's card is not found", async () => {
    const { aurora, borealis, admin, lead, auroraCard, borealisCard } = await group();
    await send(admin, { intent: "brand-administration", id: lead.profile.id, brandIds: [String(aurora.id)] });
    const runner = await fresh(lead);
    const card = (id: string, brandId: number) => ({
      intent: "update",
      id,
      firstName: "Aki",
      lastName: "Aurora",
      username: id === auroraCard.id ? auroraCard.username : borealisCard.username,
      email: id === auroraCard.id ? auroraCard.email : borealisCard.email,
      title: "Head of Sales",
      companyBrandId: String(brandId),
    });

    expect((await send(runner, card(auroraCard.id, aurora.id))).status).toBe(302);
    const moved = await send(runner, card(auroraCard.id, borealis.id));
    expect(moved.status).toBe(400);
    expect(moved.data).toMatchObject({ fieldErrors: { companyBrandId: [BRAND_MOVE_MESSAGES.outOfScope] } });
    expect((await send(runner, card(borealisCard.id, borealis.id))).status).toBe(404);
    expect((await send(runner, { intent: "deactivate", id: borealisCard.id })).status).toBe(404);

    const [after] = await db.select().from(profiles).where(eq(profiles.id, auroraCard.id));
    expect(after).toMatchObject({ title: "Head of Sales", companyBrandId: aurora.id });
    // Their edit is on the record like an administrator's.
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.targetId, auroraCard.id));
    expect(entry).toMatchObject({ action: "update", actorEmail: lead.email });
  });

  it("cannot switch off, delete or edit the card of an administrator of the whole site, even in their brand", async () => {
    const { aurora, admin, lead } = await group();
    await db.update(profiles).set({ companyBrandId: aurora.id }).where(eq(profiles.id, admin.profile.id));
    await send(admin, { intent: "brand-administration", id: lead.profile.id, brandIds: [String(aurora.id)] });
    const runner = await fresh(lead);
    expect((await send(runner, { intent: "deactivate", id: admin.profile.id })).status).toBe(404);
    expect((await send(runner, { intent: "delete", id: admin.profile.id })).status).toBe(404);
    const [card] = await db.select().from(profiles).where(eq(profiles.id, admin.profile.id));
    expect(card?.deactivatedAt).toBeNull();
  });

  it("invite everyone not yet invited of their brands only", async () => {
    const { aurora, admin, lead, auroraCard, borealisCard } = await group();
    await send(admin, { intent: "brand-administration", id: lead.profile.id, brandIds: [String(aurora.id)] });
    const answer = await send(await fresh(lead), { intent: "invite-all" });
    expect(answer.toast?.text).toBe("Invitation on its way to 1 person.");
    const invited = await db.select({ id: invitations.profileId }).from(invitations);
    expect(invited.map((row) => row.id)).toEqual([auroraCard.id]);
    expect(invited.map((row) => row.id)).not.toContain(borealisCard.id);
  });
});

/** The brand form as its dialog sends it, with `fields` over the brand's own values. */
async function saveBrandForm(viewer: Member, brand: { id: number; name: string }, fields: Record<string, string>) {
  const form = new FormData();
  const values = {
    intent: "update",
    id: String(brand.id),
    name: brand.name,
    primaryColor: "#0f766e",
    secondaryColor: "#1d4ed8",
    active: "on",
    ...fields,
  };
  for (const [name, value] of Object.entries(values)) form.set(name, value);
  return run(brandsAction, await multipartRequest("/admin/brands", form), {}, viewer.viewer);
}

describe("what a brand administrator never reaches", () => {
  it("another brand's figures, the leads of a whole-site administrator's card, a manager named from another brand", async () => {
    const { aurora, borealis, admin, lead, auroraCard, borealisCard } = await group();
    await send(admin, { intent: "brand-administration", id: lead.profile.id, brandIds: [String(aurora.id)] });
    const runner = await fresh(lead);
    const figures = await run(analyticsLoader, getRequest(`/admin/analytics?brand=${borealis.id}`), {}, runner.viewer);
    expect(figures.status).toBe(404);

    await db
      .insert(siteSettings)
      .values({ id: 1, adminsSeeLeads: true })
      .onConflictDoUpdate({
        target: siteSettings.id,
        set: { adminsSeeLeads: true },
      });
    await db.update(profiles).set({ companyBrandId: aurora.id }).where(eq(profiles.id, admin.profile.id));
    expect(await leadsOf(runner.viewer, admin.profile.username)).toBe("hidden");
    expect(await leadsOf(runner.viewer, borealisCard.username)).toBe("hidden");
    expect(await leadsOf(runner.viewer, auroraCard.username)).toMatchObject({ profileId: auroraCard.id, own: false });

    for (const named of [borealisCard.username, borealisCard.email]) {
      const answer = await send(runner, {
        intent: "update",
        id: auroraCard.id,
        firstName: auroraCard.firstName,
        lastName: auroraCard.lastName,
        username: auroraCard.username,
        email: auroraCard.email,
        companyBrandId: String(aurora.id),
        manager: named,
      });
      expect(answer.data, named).toMatchObject({ fieldErrors: { manager: [MANAGER_MESSAGES.unknownAmong] } });
    }
  });

  it("the card of someone who also runs another brand, a card for an administrator's address, an inactive brand", async () => {
    const { aurora, borealis, admin, lead, auroraCard } = await group();
    const other = await createMember({ firstName: "Oli", lastName: "Other" });
    await db.update(profiles).set({ companyBrandId: aurora.id }).where(eq(profiles.id, other.profile.id));
    await send(admin, { intent: "brand-administration", id: lead.profile.id, brandIds: [String(aurora.id)] });
    await send(admin, {
      intent: "brand-administration",
      id: other.profile.id,
      brandIds: [String(aurora.id), String(borealis.id)],
    });
    const runner = await fresh(lead);
    expect((await send(runner, { intent: "deactivate", id: other.profile.id })).status).toBe(404);
    expect((await send(runner, { intent: "delete", id: other.profile.id })).status).toBe(404);

    const form = new FormData();
    for (const [name, value] of Object.entries({
      firstName: "Ada",
      lastName: "Again",
      email: "admin@example.com",
      companyBrandId: String(aurora.id),
    })) {
      form.set(name, value);
    }
    await db.delete(profiles).where(eq(profiles.id, admin.profile.id));
    const made = await run(createAction, await multipartRequest("/admin/profiles/create", form), {}, runner.viewer);
    expect(made.status).toBe(400);
    expect(await db.select().from(profiles).where(eq(profiles.email, "admin@example.com"))).toEqual([]);

    await db.update(brands).set({ active: false }).where(eq(brands.id, borealis.id));
    const moved = await send(admin, { intent: "set-brand", ids: [auroraCard.id], brandId: String(borealis.id) });
    expect(moved.toast?.tone).toBe("error");
  });

  it("must use a second step where administrators must, and lose brand administration on becoming an administrator", async () => {
    const { aurora, admin, lead } = await group();
    await send(admin, { intent: "brand-administration", id: lead.profile.id, brandIds: [String(aurora.id)] });
    await db
      .insert(siteSettings)
      .values({ id: 1, secondFactorRule: "admins" })
      .onConflictDoUpdate({
        target: siteSettings.id,
        set: { secondFactorRule: "admins" },
      });
    // Their next page is the set-up of a second step, as an administrator's is.
    await expect(requireViewer(getRequest("/admin/profiles", lead.cookie))).rejects.toMatchObject({ status: 302 });
    const due = await requireViewer(getRequest("/admin/profiles", lead.cookie)).catch((thrown: Response) => thrown);
    expect((due as Response).headers.get("location")).toMatch(/^\/auth\/two-factor-setup/);
    expect(await mustUseSecondFactor({ email: lead.email, role: "member", brandIds: [] })).toBe(false);
    await db.update(siteSettings).set({ secondFactorRule: null });

    await send(admin, { intent: "make-admin", id: lead.profile.id });
    await send(admin, { intent: "remove-admin", id: lead.profile.id });
    expect((await fresh(lead)).viewer.brandIds).toEqual([]);
  });

  it("edit their own card as a member: a new address waits for its confirmation", async () => {
    const { aurora, admin, lead } = await group();
    await send(admin, { intent: "brand-administration", id: lead.profile.id, brandIds: [String(aurora.id)] });
    const runner = await fresh(lead);
    const saved = await saveOwnCard(runner, { email: "someone.else@example.org" });
    expect(saved.status).toBe(302);
    const [card] = await db.select().from(profiles).where(eq(profiles.id, lead.profile.id));
    expect(card?.email).toBe(lead.email);
  });
});

describe("Set brand on Manage Profiles", () => {
  it("moves the chosen people into a brand, each on the record; a brand administrator only into their brands and only their people", async () => {
    const { aurora, borealis, admin, lead, auroraCard, borealisCard } = await group();
    const moved = await send(admin, {
      intent: "set-brand",
      ids: [auroraCard.id, borealisCard.id],
      brandId: String(borealis.id),
    });
    expect(moved.toast?.text).toBe("1 person moved to Borealis Travel.");
    const entries = await db.select().from(auditLog).where(eq(auditLog.targetId, auroraCard.id));
    expect(entries.map((entry) => entry.changes)).toEqual([{ companyBrandId: ["Aurora Foods", "Borealis Travel"] }]);

    await send(admin, { intent: "brand-administration", id: lead.profile.id, brandIds: [String(aurora.id)] });
    await send(admin, { intent: "set-brand", ids: [auroraCard.id], brandId: String(aurora.id) });
    const runner = await fresh(lead);
    const outward = await send(runner, { intent: "set-brand", ids: [auroraCard.id], brandId: String(borealis.id) });
    expect(outward.toast).toMatchObject({ text: BRAND_MOVE_MESSAGES.outOfScope, tone: "error" });
    // Another brand's person, chosen by a forged form, is not theirs to move.
    const forged = await send(runner, { intent: "set-brand", ids: [borealisCard.id], brandId: String(aurora.id) });
    expect(forged.toast?.text).toBe("Nobody was moved: the chosen people are in Aurora Foods already.");
    const [still] = await db.select().from(profiles).where(eq(profiles.id, borealisCard.id));
    expect(still?.companyBrandId).toBe(borealis.id);
    expect((await send(admin, { intent: "set-brand", ids: [auroraCard.id], brandId: "99999" })).toast?.tone).toBe(
      "error",
    );
  });
});

describe("brand domains", () => {
  it("are the administrators' to set, each domain at one brand, on the record; a brand administrator's form keeps them", async () => {
    const { aurora, borealis, admin, lead } = await group();
    expect((await saveBrandForm(admin, aurora, { emailDomains: "Aurora.example\n@aurora-foods.example" })).status).toBe(
      302,
    );
    expect(await domainsOf(aurora.id)).toEqual(["aurora-foods.example", "aurora.example"]);

    const taken = await saveBrandForm(admin, borealis, { emailDomains: "aurora.example" });
    expect(taken.status).toBe(400);
    expect(taken.data).toMatchObject({
      fieldErrors: { emailDomains: ["aurora.example is Aurora Foods's already: a domain belongs to one brand."] },
    });
    expect(await domainsOf(borealis.id)).toEqual([]);

    await send(admin, { intent: "brand-administration", id: lead.profile.id, brandIds: [String(aurora.id)] });
    const runner = await fresh(lead);
    expect((await saveBrandForm(runner, aurora, { emailDomains: "gmail.example", isDefault: "on" })).status).toBe(302);
    expect(await domainsOf(aurora.id)).toEqual(["aurora-foods.example", "aurora.example"]);
    const [kept] = await db.select().from(brands).where(eq(brands.id, aurora.id));
    expect(kept?.isDefault).toBe(false);

    const [entry] = await db
      .select({ changes: auditLog.changes })
      .from(auditLog)
      .where(eq(auditLog.targetId, String(aurora.id)));
    expect(entry?.changes).toMatchObject({ emailDomains: [null, "aurora-foods.example, aurora.example"] });
  });

  it("give a card an administrator makes without a brand the brand of its address; one default brand at a time", async () => {
    const { aurora, borealis, admin } = await group();
    await saveBrandForm(admin, aurora, { emailDomains: "aurora.example" });
    await saveBrandForm(admin, borealis, { isDefault: "on" });
    await saveBrandForm(admin, aurora, { emailDomains: "aurora.example", isDefault: "on" });
    const defaults = await db.select({ name: brands.name }).from(brands).where(eq(brands.isDefault, true));
    expect(defaults).toEqual([{ name: "Aurora Foods" }]);

    for (const [email, brand] of [
      ["new.person@team.aurora.example", aurora],
      ["someone@example.org", aurora],
    ] as const) {
      const form = new FormData();
      for (const [name, value] of Object.entries({ firstName: "New", lastName: "Person", email }))
        form.set(name, value);
      const made = await run(createAction, await multipartRequest("/admin/profiles/create", form), {}, admin.viewer);
      expect(made.status, JSON.stringify(made.data)).toBe(302);
      const [card] = await db.select().from(profiles).where(eq(profiles.email, email));
      expect(card?.companyBrandId, email).toBe(brand.id);
    }
  });
});

describe("the audit log", () => {
  it("filters by brand: the brand's own entries and those of its cards, another brand's a 404 to a brand administrator", async () => {
    const { aurora, borealis, admin, lead, auroraCard, borealisCard } = await group();
    for (const card of [auroraCard, borealisCard]) await send(admin, { intent: "deactivate", id: card.id });
    await send(admin, { intent: "brand-administration", id: lead.profile.id, brandIds: [String(aurora.id)] });
    const labels = async (viewer: Member["viewer"], brand: number) => {
      const answer = await run(auditLoader, getRequest(`/admin/audit?brand=${brand}`), {}, viewer);
      if (answer.status !== 200) return answer.status;
      return (answer.data as { entries: { target: { label: string } }[] }).entries.map((entry) => entry.target.label);
    };
    expect(await labels(admin.viewer, borealis.id)).toEqual([expect.stringContaining("Bea Borealis")]);
    // Aurora's: its card switched off, and its member made its administrator.
    expect(await labels(admin.viewer, aurora.id)).toEqual([
      expect.stringContaining("Lena Lead"),
      expect.stringContaining("Aki Aurora"),
    ]);
    const runner = await fresh(lead);
    expect(await labels(runner.viewer, borealis.id)).toBe(404);
  });

  it("names the brands a card moved between, never their ids", async () => {
    const { borealis, admin, auroraCard } = await group();
    await send(admin, {
      intent: "update",
      id: auroraCard.id,
      firstName: auroraCard.firstName,
      lastName: auroraCard.lastName,
      username: auroraCard.username,
      email: auroraCard.email,
      companyBrandId: String(borealis.id),
    });
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.targetId, auroraCard.id));
    expect(entry?.changes).toMatchObject({ companyBrandId: ["Aurora Foods", "Borealis Travel"] });
  });
});

describe("a member's brand", () => {
  it("stays the one they were given, unless their brand lets its members move", async () => {
    const { aurora, borealis } = await group();
    const member = await createMember({ firstName: "Mo", lastName: "Member" });
    await db.update(profiles).set({ companyBrandId: aurora.id }).where(eq(profiles.id, member.profile.id));

    const refused = await saveOwnCard(member, { companyBrandId: String(borealis.id) });
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({ fieldErrors: { companyBrandId: [BRAND_MOVE_MESSAGES.kept] } });

    await db.update(brands).set({ membersChangeBrand: true }).where(eq(brands.id, aurora.id));
    expect((await saveOwnCard(member, { companyBrandId: String(borealis.id) })).status).toBe(302);
    const [card] = await db.select().from(profiles).where(eq(profiles.id, member.profile.id));
    expect(card?.companyBrandId).toBe(borealis.id);
  });
});
