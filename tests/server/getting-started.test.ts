import { describe, expect, it } from "vitest";
import { readToast } from "~/.server/http/toast";
import { db } from "~/.server/platform/db/client";
import { brands, imports, siteSettings } from "~/.server/platform/db/schema";
import type { DashboardData } from "~/lib/dashboard";
import { action as dashboardAction, loader as dashboardLoader } from "~/routes/admin/dashboard";
import { cookieFrom, createMember, formRequest, getRequest, makeBrandAdministrator, run } from "./helpers";

type Member = Awaited<ReturnType<typeof createMember>>;

async function setupOf(person: Member) {
  const page = await run(dashboardLoader, getRequest("/admin/dashboard"), {}, person.viewer);
  return (page.data as DashboardData).gettingStarted;
}

async function hide(person: Member, fields: Record<string, string> = { intent: "finish-setup", redirectTo: "/" }) {
  const answer = await run(dashboardAction, formRequest("/admin/dashboard", fields), {}, person.viewer);
  return { ...answer, toast: (await readToast(cookieFrom(answer.headers)))?.text };
}

describe("getting started", () => {
  it("shows a new installation's administrator what it still needs, ticks each step once done, and hides for good when asked", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    expect(await setupOf(admin)).toEqual({ steps: { company: false, brands: false, joining: false, people: false } });

    await db.insert(siteSettings).values({ id: 1, companyName: "Acme Group", joinRule: "invited" });
    const [brand] = await db.insert(brands).values({ name: "Aurora Foods" }).returning();
    expect(await setupOf(admin)).toEqual({ steps: { company: true, brands: true, joining: true, people: false } });

    // Only the whole site's administrators see it, and only they hide it.
    const lead = await makeBrandAdministrator(await createMember({ email: "lena@example.org" }), [brand!.id]);
    expect(await setupOf(lead)).toBeNull();
    expect((await hide(lead)).status).toBe(403);
    expect(await setupOf(admin)).not.toBeNull();

    expect((await hide(admin, { intent: "something-else" })).status).toBe(400);
    // Back where it was hidden from, never off the site.
    const hidden = await hide(admin, { intent: "finish-setup", redirectTo: "https://evil.example/" });
    expect(hidden).toMatchObject({ status: 302, location: "/admin/dashboard" });
    expect(hidden.toast).toBe("The set-up list is hidden. Settings, Brands and Import are in the menu.");
    expect(await setupOf(admin)).toBeNull();
  });

  it("goes away by itself once every step is done", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    await db.insert(siteSettings).values({ id: 1, primaryLogo: "site/0123456789abcdef.webp", joinRule: "domains" });
    await db.insert(brands).values({ name: "Aurora Foods" });
    expect((await setupOf(admin))?.steps.people).toBe(false);
    await db
      .insert(imports)
      .values({ createdBy: admin.id, fileName: "people.csv", headers: ["Email"], mapping: ["email"], totalRows: 1 });
    expect(await setupOf(admin)).toBeNull();
  });
});
