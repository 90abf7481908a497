import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { analyticsReport, parseAnalyticsQuery } from "~/.server/analytics/report";
import { getOverviewStats, getProfileRank, getRecentMembers } from "~/.server/analytics/stats";
import { readToast } from "~/.server/http/toast";
import { db } from "~/.server/platform/db/client";
import { brands, invitations, profiles, profileViews, siteSettings, users } from "~/.server/platform/db/schema";
import { env } from "~/.server/platform/env";
import { ValidationError } from "~/.server/platform/errors";
import { getSiteSettings } from "~/.server/platform/site-settings";
import { action as brandsAction } from "~/routes/admin/brands";
import { loader as analyticsCsv } from "~/routes/admin/export/analytics.csv";
import { loader as dashboardCsv } from "~/routes/admin/export/dashboard.csv";
import { action as profilesAction } from "~/routes/admin/profiles";
import { action as createAction } from "~/routes/admin/profiles-create";
import { action as brandingSettings } from "~/routes/admin/settings/branding";
import { action as generalSettings } from "~/routes/admin/settings/general";
import { action as legalSettings } from "~/routes/admin/settings/legal";
import { hasPython, PYTHON } from "../support/checkers";
import { cookieFrom, createMember, formRequest, getRequest, multipartRequest, present, run } from "./helpers";

/** The whole site: what an administrator's figures count. */
const SITE = { cards: sql`true`, brands: sql`true` };

/** The message a write leaves for the next page (the toast its redirect carries). */
async function toastOf(result: { headers: Headers }) {
  return (await readToast(cookieFrom(result.headers)))?.text;
}

const DAY = 24 * 60 * 60 * 1000;
/** A fixed "now": Wednesday 2026-11-18, noon UTC. */
const NOW = new Date("2026-11-18T12:00:00Z");
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);

/**
 * The fixture every statistic is checked against, computed by hand:
 * 10 profiles, 4 claimed; views 0,0,3,5,5,12,0,1,0,9 (total 35, 6 with views);
 * 3 active brands of 4; 3 created in the last 7 days, 7 older.
 */
async function fixture() {
  const [north, south, east, retired] = await db
    .insert(brands)
    .values([
      { name: "North", primaryColor: "#111111" },
      { name: "South", primaryColor: "#222222" },
      { name: "East", primaryColor: "#333333" },
      { name: "Retired", primaryColor: "#444444", active: false },
    ])
    .returning();
  const accounts = await db
    .insert(users)
    .values(["u1", "u2", "u3", "u4"].map((id) => ({ id, name: id, email: `${id}@example.org`, emailVerified: true })))
    .returning();
  const rows: (typeof profiles.$inferInsert)[] = [
    { firstName: "Ann", lastName: "A", views: 0, days: 1, brand: north, user: accounts[0] },
    { firstName: "Ben", lastName: "B", views: 0, days: 3, brand: north },
    { firstName: "Cat", lastName: "C", views: 3, days: 6, brand: south, user: accounts[1] },
    { firstName: "Dan", lastName: "D", views: 5, days: 8, brand: south },
    { firstName: "Eve", lastName: "E", views: 5, days: 10, brand: south },
    { firstName: "Fay", lastName: "F", views: 12, days: 15, brand: east, user: accounts[2] },
    { firstName: "Gus", lastName: "G", views: 0, days: 20, brand: retired },
    { firstName: "Hal", lastName: "H", views: 1, days: 25 },
    { firstName: "Ivy", lastName: "I", views: 0, days: 40, user: accounts[3] },
    { firstName: "Jon", lastName: "J", views: 9, days: 45, brand: north },
  ].map((row, index) => ({
    firstName: row.firstName,
    lastName: row.lastName,
    email: `${row.firstName.toLowerCase()}@example.org`,
    username: `${row.firstName.toLowerCase()}.${index}`,
    viewCount: row.views,
    createdAt: ago(row.days),
    companyBrandId: row.brand?.id ?? null,
    userId: row.user?.id ?? null,
    // A claimed card was claimed the day it was made.
    claimedAt: row.user ? ago(row.days) : null,
  }));
  const inserted = await db.insert(profiles).values(rows).returning();
  const profileOf = (firstName: string) =>
    present(
      inserted.find((row) => row.firstName === firstName),
      `${firstName}'s card`,
    );
  // Views: 2 today (qr, link), 1 yesterday (directory), 1 twenty days ago (qr), 1 forty days ago (qr).
  await db.insert(profileViews).values([
    { profileId: profileOf("Fay").id, source: "qr", createdAt: new Date(NOW.getTime() - 60_000) },
    { profileId: profileOf("Fay").id, source: "link", createdAt: new Date(NOW.getTime() - 120_000) },
    { profileId: profileOf("Jon").id, source: "directory", createdAt: ago(1) },
    { profileId: profileOf("Cat").id, source: "qr", createdAt: ago(20) },
    { profileId: profileOf("Dan").id, source: "qr", createdAt: ago(40) },
  ]);
  return {
    profileOf,
    north: present(north, "the North brand"),
    south: present(south, "the South brand"),
    east: present(east, "the East brand"),
  };
}

describe("statistics against a hand-computed fixture", () => {
  it("computes the overview cards with the adoption, growth and activity formulas", async () => {
    await fixture();
    // Creation dates are relative to NOW; the overview uses the real clock, so shift them.
    await db.execute(sql`update profiles set created_at = created_at + (now() - ${NOW.toISOString()}::timestamptz)`);
    const stats = await getOverviewStats(SITE);
    expect(stats).toEqual({
      totalProfiles: 10,
      claimedProfiles: 4,
      unclaimedProfiles: 6,
      totalViews: 35,
      activeProfiles: 6,
      newThisWeek: 3,
      activeBrands: 3,
      adoptionRate: 40,
      weeklyGrowth: (3 / 7) * 100,
      invitedProfiles: 4,
      waitingProfiles: 0,
      activeMembers: 0,
    });
  });

  it("counts the rollout: invited, still waiting (a stopped invitation not), claimed, and signed in within 30 days", async () => {
    const { profileOf } = await fixture();
    const now = new Date();
    await db.insert(invitations).values(
      ["Ben", "Dan", "Eve", "Cat"].map((name) => ({
        profileId: profileOf(name).id,
        invitedAt: now,
        lastSentAt: now,
      })),
    );
    await db
      .update(invitations)
      .set({ stoppedAt: now })
      .where(eq(invitations.profileId, profileOf("Eve").id));
    await db.update(users).set({ lastSignInAt: now }).where(eq(users.id, "u1"));
    await db
      .update(users)
      .set({ lastSignInAt: new Date(now.getTime() - 40 * 86_400_000) })
      .where(eq(users.id, "u2"));
    expect(await getOverviewStats(SITE)).toMatchObject({
      // Ann, Cat, Fay and Ivy claimed; Ben, Dan and Eve invited.
      invitedProfiles: 7,
      // Ben and Dan: Eve asked for no more invitations.
      waitingProfiles: 2,
      activeMembers: 1,
    });
  });

  it("ranks by views among profiles with views, 0 without", async () => {
    const { profileOf } = await fixture();
    expect(await getProfileRank(profileOf("Fay").id)).toBe(1);
    expect(await getProfileRank(profileOf("Jon").id)).toBe(2);
    expect(await getProfileRank(profileOf("Dan").id)).toBe(3);
    expect(await getProfileRank(profileOf("Eve").id)).toBe(3);
    expect(await getProfileRank(profileOf("Cat").id)).toBe(5);
    expect(await getProfileRank(profileOf("Ann").id)).toBe(0);
  });

  it("shows no rank while fewer than five cards have views: among few, a rank says little", async () => {
    const { profileOf } = await fixture();
    await db.update(profiles).set({ viewCount: 0 }).where(sql`${profiles.firstName} in ('Cat', 'Hal')`);
    expect(await getProfileRank(profileOf("Fay").id)).toBe(0);
  });

  it("lists the five newest members", async () => {
    await fixture();
    expect((await getRecentMembers(SITE)).map((row) => row.firstName)).toEqual(["Ann", "Ben", "Cat", "Dan", "Eve"]);
    expect((await getRecentMembers(SITE))[0]).toMatchObject({
      claimed: true,
      brandName: "North",
      brandColor: "#111111",
    });
  });
});

describe("analytics by brand and period, against the same fixture", () => {
  const query = (search: string) => parseAnalyticsQuery(new URL(`http://localhost/admin/analytics?${search}`), NOW);

  it("counts the last 30 days: views, the cards viewed, people who joined or claimed (not cards an import made), per day", async () => {
    await fixture();
    const report = await analyticsReport(SITE, query("tz=UTC"));
    expect(report.tiles).toEqual({
      activeProfiles: 10,
      deactivatedProfiles: 0,
      activeBrands: 3,
      views: 4,
      viewedProfiles: 3,
      // Ann, Cat and Fay claimed theirs within 30 days; Ivy 40 days ago.
      registrations: 3,
    });
    expect(report.byBrand).toEqual([
      expect.objectContaining({ name: "North", count: 3 }),
      expect.objectContaining({ name: "South", count: 3 }),
      expect.objectContaining({ name: "East", count: 1 }),
    ]);
    expect(report.top.map((row) => [row.firstName, row.views])).toEqual([
      ["Fay", 2],
      ["Cat", 1],
      ["Jon", 1],
    ]);
    expect(report.sources).toEqual({ qr: 2, link: 1, directory: 1 });
    expect(report.views.step).toBe("day");
    expect(report.views.bars).toHaveLength(30);
    expect(report.views.bars.at(-1)).toEqual({ start: "2026-11-18", count: 2 });
    expect(report.views.bars.at(-2)).toEqual({ start: "2026-11-17", count: 1 });
    expect(report.views.bars.find((bar) => bar.start === "2026-10-29")).toEqual({ start: "2026-10-29", count: 1 });
    expect(report.registrations.bars.filter((bar) => bar.count > 0)).toEqual([
      { start: "2026-11-03", count: 1 },
      { start: "2026-11-12", count: 1 },
      { start: "2026-11-17", count: 1 },
    ]);
  });

  it("narrows every figure to one brand, and to the days chosen, a week a bar beyond three months", async () => {
    const { south } = await fixture();
    const southern = await analyticsReport(SITE, query(`tz=UTC&brand=${south.id}`));
    expect(southern.tiles).toMatchObject({ activeProfiles: 3, views: 1, viewedProfiles: 1, registrations: 1 });
    expect(southern.byBrand.map((brand) => brand.name)).toEqual(["South"]);

    const week = await analyticsReport(SITE, query("tz=UTC&range=7"));
    // Ann (17 Nov) and Cat (12 Nov) claimed theirs within the week.
    expect(week.tiles).toMatchObject({ views: 3, registrations: 2 });
    expect(week.views.bars.map((bar) => bar.start)).toEqual([
      "2026-11-12",
      "2026-11-13",
      "2026-11-14",
      "2026-11-15",
      "2026-11-16",
      "2026-11-17",
      "2026-11-18",
    ]);
    const year = await analyticsReport(SITE, query("tz=UTC&range=custom&from=2025-11-19&to=2026-11-18"));
    expect(year.views.step).toBe("week");
    expect(year.views.bars.reduce((sum, bar) => sum + bar.count, 0)).toBe(5);
  });

  it("counts days where the viewer is: a view at noon UTC is the next day on Kiritimati", async () => {
    await fixture();
    const report = await analyticsReport(SITE, query("tz=Pacific/Kiritimati&range=7"));
    expect(report.views.bars.at(-1)).toEqual({ start: "2026-11-19", count: 2 });
    expect(report.views.bars.at(-2)).toEqual({ start: "2026-11-18", count: 1 });
  });

  it("refuses a malformed period with a message naming it, and takes an unknown time zone as UTC", () => {
    expect(() => query("range=365")).toThrow(ValidationError);
    expect(() => query("range=custom&from=2026-11-18&to=2026-11-01")).toThrow(ValidationError);
    expect(() => query("range=custom&from=2024-01-01&to=2026-11-18")).toThrow(ValidationError);
    expect(() => query("brand=abc")).toThrow(ValidationError);
    expect(query("tz=Nowhere/Else").timeZone).toBe("UTC");
    expect(query("tz=%27;drop").timeZone).toBe("UTC");
  });
});

const HAS_PYTHON = hasPython();

function parseCsv(text: string): string[][] {
  return JSON.parse(
    execFileSync(
      PYTHON,
      [
        "-c",
        "import sys, csv, json; print(json.dumps(list(csv.reader(sys.stdin.read().lstrip('\\ufeff').splitlines(True)))))",
      ],
      {
        input: text,
      },
    ).toString(),
  );
}

describe.skipIf(!HAS_PYTHON)("exports", () => {
  it("writes the dashboard CSV that an independent parser reads back, accents, commas, quotes and formulas safe", async () => {
    const admin = await createMember({ email: "admin@example.com", firstName: "Ada", lastName: "Admin" });
    await db.insert(brands).values({ name: 'Café, "Crème"' });
    const [brand] = await db.select().from(brands);
    await db.insert(profiles).values({
      firstName: '=HYPERLINK("http://evil")',
      lastName: 'Zoë, "the" Great',
      email: "zoe@example.org",
      username: "zoe.great",
      companyBrandId: present(brand, "the brand").id,
      viewCount: 4,
    });
    const response = (await run(dashboardCsv, getRequest("/admin/export/dashboard.csv", admin.cookie))) as {
      headers: Headers;
    };
    const bytes = new Uint8Array(
      await (
        (await dashboardCsv({ request: getRequest("/admin/export/dashboard.csv", admin.cookie) } as never)) as Response
      ).arrayBuffer(),
    );
    expect(Array.from(bytes.slice(0, 3))).toEqual([0xef, 0xbb, 0xbf]);
    const raw = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="namecard-dashboard-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(raw.charCodeAt(0)).toBe(0xfeff);
    const rows = parseCsv(raw);
    expect(rows.slice(0, 8)).toEqual([
      ["Metric", "Value"],
      ["Total Profiles", "2"],
      ["Claimed", "1"],
      ["Unclaimed", "1"],
      ["Total Brands", "1"],
      ["Total Views", "4"],
      ["Adoption Rate", "50.0%"],
      ["Weekly Growth", "0.0%"],
    ]);
    const header = rows.findIndex((row) => row[0] === "Name");
    expect(rows[header]).toEqual(["Name", "Email", "Username", "Brand", "Status", "Views", "Created"]);
    const zoe = present(
      rows.slice(header + 1).find((row) => row[2] === "zoe.great"),
      "Zoë's row",
    );
    expect(zoe.slice(0, 6)).toEqual([
      `'=HYPERLINK("http://evil") Zoë, "the" Great`,
      "zoe@example.org",
      "zoe.great",
      'Café, "Crème"',
      "Unclaimed",
      "4",
    ]);
  });

  it("writes the analytics CSV with the metrics and the ten most viewed", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const cards = await db
      .insert(profiles)
      .values(
        Array.from({ length: 12 }, (_, index) => ({
          firstName: `P${index}`,
          lastName: "Viewed",
          email: `p${index}@example.org`,
          username: `p${index}`,
          viewCount: index + 1,
        })),
      )
      .returning();
    // Viewed in the last 30 days: P0 once, P1 twice… P11 twelve times.
    await db
      .insert(profileViews)
      .values(
        cards.flatMap((card) =>
          Array.from({ length: card.viewCount }, () => ({ profileId: card.id, source: "qr" as const })),
        ),
      );
    const raw = await (
      (await analyticsCsv({ request: getRequest("/admin/export/analytics.csv", admin.cookie) } as never)) as Response
    ).text();
    const rows = parseCsv(raw);
    expect(rows[0]).toEqual(["Metric", "Value"]);
    expect(rows).toContainEqual(["Total Views", String((12 * 13) / 2)]);
    const header = rows.findIndex((row) => row[0] === "Name");
    expect(rows[header]).toEqual(["Name", "Username", "Views", "Brand"]);
    expect(rows).toContainEqual(["Leads by Card"]);
    expect(rows.slice(header + 1, header + 11).map((row) => row[1])).toEqual([
      "p11",
      "p10",
      "p9",
      "p8",
      "p7",
      "p6",
      "p5",
      "p4",
      "p3",
      "p2",
    ]);
  });
});

describe("administrator actions", () => {
  it("creates an unclaimed profile with a first.last username, and refuses a taken username or email with the exact messages", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const form = (fields: Record<string, string>) => {
      const data = new FormData();
      for (const [key, value] of Object.entries({ firstName: "", lastName: "", username: "", email: "", ...fields }))
        data.set(key, value);
      return data;
    };
    const created = await run(
      createAction,
      await multipartRequest(
        "/admin/profiles/create",
        form({ firstName: "Mary Ann", lastName: "Smith", email: "MARY@example.org" }),
      ),
      {},
      admin.viewer,
    );
    expect(created).toMatchObject({ status: 302, location: "/admin/profiles" });
    expect(await toastOf(created)).toBe(
      "Profile created for Mary Ann Smith. They can claim it by signing up with mary@example.org.",
    );
    const [row] = await db.select().from(profiles).where(eq(profiles.email, "mary@example.org"));
    expect(row).toMatchObject({
      username: "maryann.smith",
      userId: null,
      viewCount: 0,
      phone: null,
      bio: null,
      title: null,
    });

    const taken = await run(
      createAction,
      await multipartRequest(
        "/admin/profiles/create",
        form({ firstName: "X", lastName: "Y", username: "maryann.smith", email: "mary@example.org" }),
      ),
      {},
      admin.viewer,
    );
    expect(taken.status).toBe(400);
    expect((taken.data as { fieldErrors: unknown }).fieldErrors).toEqual({
      username: ["Username already exists. Please choose a different one."],
      email: ["Email already exists. Please use a different email address."],
    });
    const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(profiles);
    expect(count?.n).toBe(2); // the administrator's own and Mary Ann's
  });

  it("edits any profile, then deletes it with its views and its photo file", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const member = await createMember({ firstName: "Edit", lastName: "Me" });
    const id = member.profile.id;
    const photo = await sharp({ create: { width: 200, height: 200, channels: 3, background: "#abcdef" } })
      .png()
      .toBuffer();
    const edit = new FormData();
    for (const [key, value] of Object.entries({
      intent: "update",
      id,
      firstName: "Edited",
      lastName: "Member",
      username: "edited.member",
      email: member.email,
      title: "Lead",
    }))
      edit.set(key, value);
    edit.set("photo", new File([new Uint8Array(photo)], "p.png", { type: "image/png" }));
    const updated = await run(profilesAction, await multipartRequest("/admin/profiles", edit), {}, admin.viewer);
    expect(updated).toMatchObject({ status: 302, location: "/admin/profiles" });
    expect(await toastOf(updated)).toBe("Profile updated successfully for Edited Member!");
    const [row] = await db.select().from(profiles).where(eq(profiles.id, id));
    expect(row).toMatchObject({
      firstName: "Edited",
      username: "edited.member",
      title: "Lead",
      userId: member.viewer.user.id,
    });
    const file = path.join(env.DATA_DIR, "uploads", present(row?.profilePhoto, "the stored photo"));
    expect(fs.existsSync(file)).toBe(true);
    await db.insert(profileViews).values({ profileId: id, source: "link" });

    const remove = new FormData();
    remove.set("intent", "delete");
    remove.set("id", id);
    const deleted = await run(profilesAction, await multipartRequest("/admin/profiles", remove), {}, admin.viewer);
    expect(deleted).toMatchObject({ status: 302, location: "/admin/profiles" });
    expect(await toastOf(deleted)).toBe("Profile deleted successfully for Edited Member.");
    expect(await db.select().from(profiles).where(eq(profiles.id, id))).toEqual([]);
    expect(await db.select().from(profileViews).where(eq(profileViews.profileId, id))).toEqual([]);
    expect(fs.existsSync(file)).toBe(false);
  });

  it("manages brands: name required and trimmed, colours checked, website http(s) only; deleting leaves profiles without a brand", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const send = async (fields: Record<string, string>) => {
      const data = new FormData();
      for (const [key, value] of Object.entries(fields)) data.set(key, value);
      return run(brandsAction, await multipartRequest("/admin/brands", data), {}, admin.viewer);
    };
    const bad = await send({
      intent: "create",
      name: "   ",
      primaryColor: "blue",
      secondaryColor: "#8b5cf6",
      website: "ftp://x.example",
    });
    expect((bad.data as { fieldErrors: unknown }).fieldErrors).toEqual({
      name: ["Brand name is required"],
      primaryColor: ["Use a hex colour such as #3b82f6"],
      website: ["Enter the whole address, starting with https://, such as https://www.example.com"],
    });
    expect(await db.select().from(brands)).toEqual([]);

    const created = await send({
      intent: "create",
      name: "  Acme  ",
      primaryColor: "#3B82F6",
      secondaryColor: "#8b5cf6",
      website: "",
      active: "on",
    });
    expect(await toastOf(created)).toBe("Brand created successfully!");
    const [acmeRow] = await db.select().from(brands);
    expect(acmeRow).toMatchObject({ name: "Acme", primaryColor: "#3b82f6", website: null, active: true });
    const acme = present(acmeRow, "the new brand");

    const updated = await send({
      intent: "update",
      id: String(acme.id),
      name: "Acme Corp",
      primaryColor: "#000000",
      secondaryColor: "#ffffff",
      website: "https://acme.example/",
    });
    expect(await toastOf(updated)).toBe("Brand updated successfully!");
    expect((await db.select().from(brands))[0]).toMatchObject({
      name: "Acme Corp",
      active: false,
      website: "https://acme.example/",
    });

    // A logo goes through the image pipeline: re-encoded, stored, and removed with the brand.
    const logo = new FormData();
    for (const [key, value] of Object.entries({
      intent: "update",
      id: String(acme.id),
      name: "Acme Corp",
      primaryColor: "#000000",
      secondaryColor: "#ffffff",
      active: "on",
    }))
      logo.set(key, value);
    const logoBytes = await sharp({ create: { width: 900, height: 300, channels: 4, background: "#ff000080" } })
      .png()
      .withMetadata()
      .toBuffer();
    logo.set("logo", new File([new Uint8Array(logoBytes)], "logo.png", { type: "image/png" }));
    logo.set("cover", new File([new TextEncoder().encode("not an image")], "cover.jpg", { type: "image/jpeg" }));
    const refused = await run(brandsAction, await multipartRequest("/admin/brands", logo), {}, admin.viewer);
    expect((refused.data as { fieldErrors: unknown }).fieldErrors).toEqual({
      cover: ["This file is not an image we can read. Use a JPG, PNG or WebP file."],
    });
    expect((await db.select().from(brands))[0]?.logo).toBeNull();
    logo.delete("cover");
    expect((await run(brandsAction, await multipartRequest("/admin/brands", logo), {}, admin.viewer)).status).toBe(302);
    const [withLogo] = await db.select().from(brands);
    const logoKey = present(withLogo?.logo, "the stored logo");
    expect(logoKey).toMatch(/^brands\/[0-9a-f]{32}-logo\.webp$/);
    const logoFile = path.join(env.DATA_DIR, "uploads", logoKey);
    const stored = await sharp(fs.readFileSync(logoFile)).metadata();
    expect([stored.format, stored.width, stored.height, stored.exif]).toEqual(["webp", 512, 171, undefined]);

    await db.update(profiles).set({ companyBrandId: acme.id });
    const deleted = await send({ intent: "delete", id: String(acme.id) });
    expect(await toastOf(deleted)).toBe("Brand deleted successfully!");
    const [mine] = await db.select().from(profiles);
    expect(mine).toMatchObject({ companyBrandId: null });
    expect(fs.existsSync(logoFile)).toBe(false);
  });

  it("saves each settings tab's own fields, leaves the other tabs' as they are, and a cleared field goes back to its default", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const tabs = { general: generalSettings, branding: brandingSettings, legal: legalSettings };
    const save = (tab: keyof typeof tabs, fields: Record<string, string>) =>
      run(tabs[tab], formRequest(`/admin/settings/${tab}`, fields, { cookie: admin.cookie }), {}, admin.viewer);
    const general = await save("general", { companyName: "X", website: "javascript:1" });
    expect(general.status).toBe(400);
    expect(Object.keys((general.data as { fieldErrors: object }).fieldErrors)).toEqual(["website"]);
    const branding = await save("branding", { primaryColor: "red", fontFamily: "Comic Sans" });
    expect(branding.status).toBe(400);
    expect(Object.keys((branding.data as { fieldErrors: object }).fieldErrors).sort()).toEqual([
      "fontFamily",
      "primaryColor",
    ]);
    expect(await db.select().from(siteSettings)).toEqual([]);

    const ok = await save("general", { companyName: "Acme Cards" });
    expect(ok).toMatchObject({ status: 302, location: "/admin/settings/general" });
    expect(await toastOf(ok)).toBe("Settings saved successfully!");
    expect(await save("branding", { primaryColor: "#112233", fontFamily: "Poppins" })).toMatchObject({
      status: 302,
      location: "/admin/settings/branding",
    });
    expect(await save("legal", { termsOfService: "Be kind." })).toMatchObject({
      status: 302,
      location: "/admin/settings/legal",
    });
    expect(await getSiteSettings()).toMatchObject({
      companyName: "Acme Cards",
      primaryColor: "#112233",
      fontFamily: "Poppins",
      termsOfService: "Be kind.",
    });

    await save("general", { companyName: "" });
    expect(await getSiteSettings()).toMatchObject({
      companyName: "Namecard",
      primaryColor: "#112233",
      termsOfService: "Be kind.",
    });
    await save("branding", { primaryColor: "", fontFamily: "Poppins" });
    await save("legal", { termsOfService: "" });
    expect(await getSiteSettings()).toMatchObject({
      companyName: "Namecard",
      primaryColor: "#3b82f6",
      termsOfService: null,
    });
  });
});
