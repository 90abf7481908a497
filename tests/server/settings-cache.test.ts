import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/.server/platform/db/client";
import { siteSettings } from "~/.server/platform/db/schema";
import { getSiteSettings, visitorsSeeStats } from "~/.server/platform/site-settings";
import { action as brandingSettings } from "~/routes/admin/settings/branding";
import { action as generalSettings } from "~/routes/admin/settings/general";
import { action as legalSettings } from "~/routes/admin/settings/legal";
import { createMember, eventHeard, formRequest, listenForEvents, run } from "./helpers";

/**
 * Every page reads the site settings: a server that listens for changes keeps them
 * (app/.server/platform/read-cache.ts) until an administrator saves, on this instance or another.
 */
describe("the site settings every page reads", () => {
  listenForEvents();

  it("are read once, and an administrator's save shows on the very next page", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const tabs = { general: generalSettings, branding: brandingSettings, legal: legalSettings };
    const save = (tab: keyof typeof tabs, fields: Record<string, string>) =>
      run(tabs[tab], formRequest(`/admin/settings/${tab}`, fields, { cookie: admin.cookie }), {}, admin.viewer);
    // The save's own event comes back through the database a moment later and drops what is kept once
    // more; events arrive in the order they were sent, so after it nothing earlier can arrive.
    const echoed = eventHeard("settings");
    expect(await save("general", { companyName: "Acme Cards" })).toMatchObject({ status: 302 });
    await echoed;
    expect(await getSiteSettings()).toMatchObject({ companyName: "Acme Cards" });

    // Kept: a change made by hand in the database is not read again at once (within a minute it is)…
    await db.update(siteSettings).set({ companyName: "Changed by hand" }).where(eq(siteSettings.id, 1));
    expect((await getSiteSettings()).companyName).toBe("Acme Cards");
    // …and what one caller does with its copy changes nobody else's.
    (await getSiteSettings()).companyName = "Scribbled on";
    expect((await getSiteSettings()).companyName).toBe("Acme Cards");

    // A save is the next read's, whatever tab it came from.
    expect(await save("general", { companyName: "Acme Group" })).toMatchObject({ status: 302 });
    expect(await save("branding", { primaryColor: "#445566" })).toMatchObject({ status: 302 });
    expect(await save("legal", { showStatsToVisitors: "hidden" })).toMatchObject({ status: 302 });
    expect(await getSiteSettings()).toMatchObject({ companyName: "Acme Group", primaryColor: "#445566" });
    expect(await visitorsSeeStats()).toBe(false);
  });
});
