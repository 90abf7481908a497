import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/.server/platform/db/client";
import { brands, profiles } from "~/.server/platform/db/schema";
import { action as brandsAction, loader as brandsLoader } from "~/routes/admin/brands";
import { action as profilesAction, loader as profilesLoader } from "~/routes/admin/profiles";
import { action as editAction, loader as editLoader } from "~/routes/app/profile-edit";
import { createMember, getRequest, multipartRequest, run } from "./helpers";

/**
 * Two people edit one record: the one who saves second, from a form opened
 * before the first one's save, is told and saves nothing, instead of silently
 * undoing the other's change. For brands, an administrator's card edit and a
 * member's own card.
 */

const STALE = (what: string) =>
  `Someone else changed this ${what} while you were editing it, so nothing was saved. Open it again to see their change, then make yours.`;

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

const CARD = { title: "", phone: "", bio: "", linkedinUrl: "", companyBrandId: "" };

describe("two people editing one record", () => {
  it("refuses a brand save from a dialog opened before a colleague's save, and keeps the colleague's colour", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const [brand] = await db.insert(brands).values({ name: "Contoso", primaryColor: "#111111" }).returning();
    const opened = async () => {
      const page = await run(brandsLoader, getRequest("/admin/brands", admin.cookie), {}, admin.viewer);
      return (page.data as { brands: { id: number; version: string }[] }).brands.find((row) => row.id === brand!.id)!
        .version;
    };
    const save = async (version: string, primaryColor: string) =>
      run(
        brandsAction,
        await multipartRequest(
          "/admin/brands",
          form({
            intent: "update",
            id: String(brand!.id),
            version,
            name: "Contoso",
            primaryColor,
            secondaryColor: "#222222",
            active: "on",
          }),
        ),
        {},
        admin.viewer,
      );
    // The same dialog open in two tabs (or by two administrators).
    const [versionOne, versionTwo] = [await opened(), await opened()];
    expect((await save(versionOne, "#ff0000")).status).toBe(302);
    const refused = await save(versionTwo, "#00ff00");
    expect(refused.status).toBe(409);
    expect(refused.data).toMatchObject({ formError: STALE("brand") });
    expect((await db.select().from(brands).where(eq(brands.id, brand!.id)))[0]?.primaryColor).toBe("#ff0000");
    // Opened again, it saves.
    expect((await save(await opened(), "#00ff00")).status).toBe(302);
    expect((await db.select().from(brands).where(eq(brands.id, brand!.id)))[0]?.primaryColor).toBe("#00ff00");
  });

  it("refuses an administrator's card save over a later change, and the member's own save over the administrator's", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const member = await createMember({ firstName: "Mara", lastName: "Member" });
    const card = {
      ...CARD,
      firstName: "Mara",
      lastName: "Member",
      email: member.email,
      username: member.profile.username,
    };
    const dashboardVersion = async () => {
      const page = await run(profilesLoader, getRequest("/admin/profiles", admin.cookie), {}, admin.viewer);
      const rows = (page.data as { management: { rows: { id: string; version: string }[] } }).management.rows;
      return rows.find((row) => row.id === member.profile.id)!.version;
    };
    const ownVersion = async () => {
      const page = await run(editLoader, getRequest("/profile/edit", member.cookie), {}, member.viewer);
      return (page.data as { profile: { version: string } }).profile.version;
    };
    const adminSave = async (version: string, phone: string) =>
      run(
        profilesAction,
        await multipartRequest(
          "/admin/profiles",
          form({ ...card, intent: "update", id: member.profile.id, version, phone }),
        ),
        {},
        admin.viewer,
      );
    const ownSave = async (version: string, title: string) =>
      run(
        editAction,
        await multipartRequest("/profile/edit", form({ ...card, version, title }), member),
        {},
        member.viewer,
      );

    // Both open their forms; the member saves first; the administrator's older form is refused.
    const [adminOpened, memberOpened] = [await dashboardVersion(), await ownVersion()];
    expect((await ownSave(memberOpened, "Head of Logistics")).status).toBe(302);
    const refused = await adminSave(adminOpened, "+1 555 0100");
    expect(refused.status).toBe(409);
    expect(refused.data).toMatchObject({ formError: STALE("card") });
    const [afterRefusal] = await db.select().from(profiles).where(eq(profiles.id, member.profile.id));
    expect(afterRefusal).toMatchObject({ title: "Head of Logistics", phone: null });

    // And the other way round.
    const [memberAgain, adminAgain] = [await ownVersion(), await dashboardVersion()];
    // The administrator's form, opened now, shows the member's title and adds a phone.
    card.title = "Head of Logistics";
    expect((await adminSave(adminAgain, "+1 555 0100")).status).toBe(302);
    const own = await ownSave(memberAgain, "Typed over");
    expect(own.status).toBe(409);
    expect(own.data).toMatchObject({ formError: STALE("card") });
    const [final] = await db.select().from(profiles).where(eq(profiles.id, member.profile.id));
    expect(final).toMatchObject({ title: "Head of Logistics", phone: "+1 555 0100" });
  });

  it("says what to do when the version a form sends is not one", async () => {
    const member = await createMember({ firstName: "Vic", lastName: "Version" });
    const card = {
      ...CARD,
      firstName: "Vic",
      lastName: "Version",
      email: member.email,
      username: member.profile.username,
    };
    const answer = await run(
      editAction,
      await multipartRequest("/profile/edit", form({ ...card, version: "yesterday" }), member),
      {},
      member.viewer,
    );
    expect(answer.status).toBe(400);
    expect(answer.data).toMatchObject({ fieldErrors: { version: ["Open the form again, then make your change."] } });
  });
});
