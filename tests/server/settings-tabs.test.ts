import { describe, expect, it } from "vitest";
import * as branding from "~/routes/admin/settings/branding";
import * as fields from "~/routes/admin/settings/fields";
import * as general from "~/routes/admin/settings/general";
import { loader as settingsIndex } from "~/routes/admin/settings/index";
import * as invitations from "~/routes/admin/settings/invitations";
import * as joining from "~/routes/admin/settings/joining";
import * as legal from "~/routes/admin/settings/legal";
import * as security from "~/routes/admin/settings/security";
import { createMember, formRequest, getRequest, run } from "./helpers";

/** Every tab of /admin/settings: a page of its own, with its own loader and (but Security) its own action. */
const TABS = { general, branding, legal, invitations, joining, fields, security };

describe("the settings' tabs", () => {
  it("open on the first tab, and an address of the one-page screen (?tab=) on its own", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const open = (query: string) =>
      run(settingsIndex, getRequest(`/admin/settings${query}`, admin.cookie), {}, admin.viewer);
    expect(await open("")).toMatchObject({ status: 302, location: "/admin/settings/general" });
    for (const tab of Object.keys(TABS)) {
      expect(await open(`?tab=${tab}`)).toMatchObject({ status: 302, location: `/admin/settings/${tab}` });
    }
    expect(await open("?tab=nowhere")).toMatchObject({ status: 302, location: "/admin/settings/general" });
  });

  it("answer an administrator, and refuse a member with 403 whether reading or saving", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const member = await createMember();
    expect((await run(settingsIndex, getRequest("/admin/settings", member.cookie), {}, member.viewer)).status).toBe(
      403,
    );
    for (const [tab, route] of Object.entries(TABS)) {
      const page = `/admin/settings/${tab}`;
      expect((await run(route.loader, getRequest(page, admin.cookie), {}, admin.viewer)).status, tab).toBe(200);
      expect((await run(route.loader, getRequest(page, member.cookie), {}, member.viewer)).status, tab).toBe(403);
      if ("action" in route) {
        const saved = await run(route.action, formRequest(page, {}, { cookie: member.cookie }), {}, member.viewer);
        expect(saved.status, tab).toBe(403);
      }
    }
  });

  it("each save only its own fields: an empty form of one tab leaves every other tab's as it was", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const save = (tab: keyof typeof TABS & keyof typeof SAVES, values: Record<string, string>) =>
      run(TABS[tab].action, formRequest(`/admin/settings/${tab}`, values, { cookie: admin.cookie }), {}, admin.viewer);
    const SAVES = {
      general: { companyName: "Acme Cards", deactivatedCards: "brand-website", defaultLocale: "ja" },
      branding: { primaryColor: "#112233", fontFamily: "Lato" },
      legal: { termsOfService: "Be kind.", leadRetentionMonths: "6", adminsSeeLeads: "on" },
      invitations: { autoReminders: "on", reminderAfterDays: "5", reminderMaxCount: "2" },
      joining: { joinRule: "invited", joinDomains: "example.org" },
    };
    for (const [tab, values] of Object.entries(SAVES)) {
      expect((await save(tab as keyof typeof SAVES, values)).status, tab).toBe(302);
    }
    const shown = async () =>
      Object.fromEntries(
        await Promise.all(
          Object.keys(SAVES).map(async (tab) => {
            const page = `/admin/settings/${tab}`;
            const route = TABS[tab as keyof typeof SAVES];
            const { savedAt: _when, ...data } = (
              await run(route.loader, getRequest(page, admin.cookie), {}, admin.viewer)
            ).data as Record<string, unknown>;
            return [tab, data];
          }),
        ),
      );
    const before = await shown();
    expect(before.general).toMatchObject({ values: { defaultLocale: "ja" } });
    // A language Namecard does not speak is refused, and nothing of the form is kept.
    const refused = await save("general", { companyName: "Klingon Cards", defaultLocale: "tlh" });
    expect(refused.status).toBe(400);
    expect((refused.data as { fieldErrors: Record<string, string[]> }).fieldErrors.defaultLocale).toEqual([
      "Choose one of the offered languages",
    ]);
    expect(await shown()).toEqual(before);
    expect((await save("general", { companyName: "Acme Group" })).status).toBe(302);
    const after = await shown();
    expect(after.general).toMatchObject({
      values: { companyName: "Acme Group", deactivatedCards: "gone", defaultLocale: "" },
    });
    expect({ ...after, general: null }).toEqual({ ...before, general: null });
  });
});
