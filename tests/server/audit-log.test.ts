import { parse } from "csv-parse/sync";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { recordAdminAction } from "~/.server/audit/record";
import { db } from "~/.server/platform/db/client";
import { auditLog, brands, profiles, users } from "~/.server/platform/db/schema";
import { loader as auditLoader } from "~/routes/admin/audit";
import { action as brandsAction } from "~/routes/admin/brands";
import { loader as auditCsv } from "~/routes/admin/export/audit.csv";
import { action as profilesAction } from "~/routes/admin/profiles";
import { action as createAction } from "~/routes/admin/profiles-create";
import { action as generalSettings } from "~/routes/admin/settings/general";
import { action as legalSettings } from "~/routes/admin/settings/legal";
import { action as editAction, loader as editLoader } from "~/routes/app/profile-edit";
import { createMember, formRequest, getRequest, insertCard, multipartRequest, present, run } from "./helpers";

/**
 * Every administrator action leaves one entry, written with the change: who
 * (kept as text), what, when and the fields it changed (old → new; images
 * only as changed; never a secret). Administrators read it filtered on a
 * screen and as CSV; a member sees when an administrator last changed their card.
 */

type Admin = Awaited<ReturnType<typeof createMember>>;

async function send(
  admin: Admin,
  action: (args: never) => unknown,
  path: string,
  fields: Record<string, string | File>,
) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  return run(action, await multipartRequest(path, form), {}, admin.viewer);
}

async function entries() {
  return db.select().from(auditLog).orderBy(auditLog.id);
}

async function pngFile(name: string) {
  const bytes = await sharp({ create: { width: 300, height: 300, channels: 3, background: "#336699" } })
    .png()
    .toBuffer();
  return new File([new Uint8Array(bytes)], name, { type: "image/png" });
}

const cardFields = (values: Record<string, string>) => ({
  title: "",
  phone: "",
  bio: "",
  linkedinUrl: "",
  companyBrandId: "",
  ...values,
});

describe("the audit log records", () => {
  it("creating, editing (with the photo), deactivating, reactivating and deleting a card, with the fields that changed", async () => {
    const admin = await createMember({ email: "admin@example.com", firstName: "Ada", lastName: "Admin" });
    await send(admin, createAction, "/admin/profiles/create", {
      firstName: "Nora",
      lastName: "New",
      username: "",
      email: "nora@example.org",
      title: "Buyer",
    });
    const [card] = await db.select().from(profiles).where(eq(profiles.email, "nora@example.org"));
    const id = present(card, "the created card").id;

    // An edit that changes nothing is not an action worth a line.
    const same = cardFields({ intent: "update", id, firstName: "Nora", lastName: "New", username: "nora.new" });
    await send(admin, profilesAction, "/admin/profiles", { ...same, email: "nora@example.org", title: "Buyer" });
    expect(await entries()).toHaveLength(1);

    await send(admin, profilesAction, "/admin/profiles", {
      ...same,
      firstName: "Norah",
      email: "nora@example.org",
      title: "Head Buyer",
      photo: await pngFile("nora.png"),
    });
    await send(admin, profilesAction, "/admin/profiles", { intent: "deactivate", id });
    await send(admin, profilesAction, "/admin/profiles", { intent: "reactivate", id });

    const log = await entries();
    expect(log.map((entry) => [entry.action, entry.targetKind, entry.targetId])).toEqual([
      ["create", "profile", id],
      ["update", "profile", id],
      ["deactivate", "profile", id],
      ["reactivate", "profile", id],
    ]);
    for (const entry of log) {
      expect(entry).toMatchObject({ actorId: admin.id, actorName: "Ada Admin", actorEmail: "admin@example.com" });
      expect(entry.createdAt).toBeInstanceOf(Date);
    }
    expect(log[0]?.targetLabel).toBe("Nora New (@nora.new)");
    expect(log[0]?.changes).toMatchObject({
      firstName: [null, "Nora"],
      email: [null, "nora@example.org"],
      username: [null, "nora.new"],
      title: [null, "Buyer"],
    });
    expect(log[1]?.changes).toEqual({
      firstName: ["Nora", "Norah"],
      title: ["Buyer", "Head Buyer"],
      profilePhoto: [null, "new image"],
    });
    expect(log[2]?.changes).toEqual({ state: ["active", "deactivated"] });
    expect(log[3]?.changes).toEqual({ state: ["deactivated", "active"] });

    // Deleting erases the card's values from its earlier entries, and records who deleted it.
    await send(admin, profilesAction, "/admin/profiles", { intent: "delete", id });
    const after = await entries();
    expect(after.at(-1)).toMatchObject({ action: "delete", targetId: id, targetLabel: "Norah New (@nora.new)" });
    expect(after[1]?.changes).toEqual({
      firstName: ["(erased)", "(erased)"],
      title: ["(erased)", "(erased)"],
      profilePhoto: ["(erased)", "(erased)"],
    });
    expect(JSON.stringify(after)).not.toContain("Head Buyer");
  });

  it("nothing for a refused change, and nothing for what a member does to their own card", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const member = await createMember({ firstName: "Mia", lastName: "Member" });
    await createMember({ firstName: "Tak", lastName: "En", email: "taken@example.org" });
    const refused = await send(admin, profilesAction, "/admin/profiles", {
      ...cardFields({ intent: "update", id: member.profile.id, firstName: "Mia", lastName: "Member" }),
      username: member.profile.username,
      email: "taken@example.org",
    });
    expect(refused.status).toBe(400);
    await send(admin, profilesAction, "/admin/profiles", { intent: "deactivate", id: "not-an-id" });

    const own = new FormData();
    for (const [key, value] of Object.entries(
      cardFields({ firstName: "Mia", lastName: "Changed", username: member.profile.username, email: member.email }),
    ))
      own.set(key, value);
    expect((await run(editAction, await multipartRequest("/profile/edit", own), {}, member.viewer)).status).toBe(302);
    expect(await entries()).toEqual([]);
  });

  it("brands created, edited (the logo only as changed) and deleted, and settings saved", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const brand = { name: "Acme", primaryColor: "#3b82f6", secondaryColor: "#8b5cf6", website: "", active: "on" };
    await send(admin, brandsAction, "/admin/brands", { intent: "create", ...brand });
    const [created] = await entries();
    const brandId = present(created?.targetId, "the brand's id");
    await send(admin, brandsAction, "/admin/brands", {
      intent: "update",
      id: brandId,
      ...brand,
      name: "Acme Corp",
      website: "https://acme.example/",
      logo: await pngFile("logo.png"),
    });
    await send(admin, brandsAction, "/admin/brands", { intent: "delete", id: brandId });

    const terms = "T".repeat(1_000);
    const general = await run(
      generalSettings,
      formRequest(
        "/admin/settings/general",
        { companyName: "Acme Cards", deactivatedCards: "brand-website" },
        { cookie: admin.cookie },
      ),
      {},
      admin.viewer,
    );
    expect(general.status).toBe(302);
    const legal = await run(
      legalSettings,
      formRequest("/admin/settings/legal", { termsOfService: terms }, { cookie: admin.cookie }),
      {},
      admin.viewer,
    );
    expect(legal.status).toBe(302);

    const log = await entries();
    expect(log.map((entry) => [entry.action, entry.targetKind, entry.targetLabel])).toEqual([
      ["create", "brand", "Acme"],
      ["update", "brand", "Acme Corp"],
      ["delete", "brand", "Acme Corp"],
      ["settings", "settings", "Site settings"],
      ["settings", "settings", "Site settings"],
    ]);
    expect(log[0]?.changes).toMatchObject({ name: [null, "Acme"], primaryColor: [null, "#3b82f6"] });
    expect(log[1]?.changes).toEqual({
      name: ["Acme", "Acme Corp"],
      website: [null, "https://acme.example/"],
      logo: [null, "new image"],
    });
    // Each tab's entry holds its own changes.
    expect(log[3]?.changes).toEqual({
      companyName: [null, "Acme Cards"],
      deactivatedCards: [null, "brand-website"],
    });
    // A long text is kept to its beginning and its length.
    expect(log[4]?.changes.termsOfService?.[1]).toBe(`${"T".repeat(300)}… (1000 characters)`);
    // No stored image key, password or secret anywhere.
    expect(JSON.stringify(log)).not.toMatch(/\.webp|password|\$2[aby]\$|scrypt/i);
  });

  it("keeps who acted after their account is gone, and drops any field that names a secret", async () => {
    const admin = await createMember({ email: "admin@example.com", firstName: "Gone", lastName: "Admin" });
    await db.transaction((tx) =>
      recordAdminAction(tx, {
        actor: admin.viewer,
        action: "invite",
        target: { kind: "profile", id: admin.profile.id, label: "Someone" },
        changes: { passwordHash: ["a", "b"], inviteToken: ["c", "d"], status: ["not invited", "invited"] },
      }),
    );
    await db.delete(users).where(eq(users.id, admin.id));
    const [entry] = await entries();
    expect(entry).toMatchObject({
      actorId: admin.id,
      actorName: "Gone Admin",
      actorEmail: "admin@example.com",
      action: "invite",
      changes: { status: ["not invited", "invited"] },
    });
  });

  it("an entry and its change are written together: a failing entry leaves the change undone", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const member = await createMember({ firstName: "Ato", lastName: "Mic" });
    await expect(
      db.transaction(async (tx) => {
        await tx.update(profiles).set({ title: "Half saved" }).where(eq(profiles.id, member.profile.id));
        await recordAdminAction(tx, {
          actor: { ...admin.viewer, user: { ...admin.viewer.user, name: null as unknown as string } },
          action: "update",
          target: { kind: "profile", id: member.profile.id, label: "Ato Mic" },
        });
      }),
    ).rejects.toThrow();
    const [row] = await db.select().from(profiles).where(eq(profiles.id, member.profile.id));
    expect(row?.title).toBeNull();
    expect(await entries()).toEqual([]);
  });
});

/** Entries put straight into the log, one a day back from `start`. */
async function seedEntries(count: number, start: Date, values: Partial<typeof auditLog.$inferInsert> = {}) {
  await db.insert(auditLog).values(
    Array.from({ length: count }, (_, index) => ({
      actorId: "a1",
      actorName: "Ada Admin",
      actorEmail: "ada@example.com",
      action: "update",
      targetKind: "profile",
      targetId: `p${index}`,
      targetLabel: `Person ${index}`,
      changes: { title: ["Old", "New"] as [unknown, unknown] },
      createdAt: new Date(start.getTime() - index * 86_400_000),
      ...values,
    })),
  );
}

describe("the audit screen and its export", () => {
  it("lists entries newest first in pages, filters by action, administrator, target text and dates, and says when nothing matches", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    await seedEntries(30, new Date("2026-10-30T12:00:00Z"));
    await seedEntries(2, new Date("2026-11-10T09:00:00Z"), {
      actorEmail: "bob@example.com",
      actorName: "Bob Boss",
      action: "deactivate",
      targetLabel: "Lena Leaver (@lena)",
      changes: { state: ["active", "deactivated"] },
    });
    const screen = async (query: string) => {
      const result = await run(auditLoader, getRequest(`/admin/audit${query}`, admin.cookie), {}, admin.viewer);
      if (result.status !== 200) return { status: result.status, data: result.data };
      return {
        status: 200,
        data: result.data as {
          shown: number;
          pageCount: number;
          actors: { email: string }[];
          entries: {
            when: string;
            actor: { email: string };
            action: string;
            target: { label: string };
            changes: string[];
          }[];
        },
      };
    };

    const first = await screen("");
    expect(first.data).toMatchObject({ shown: 32, pageCount: 2 });
    const firstPage = present(
      first.data as { entries: { target: { label: string }; at: string; action: string; changes: string[] }[] },
      "page",
    );
    expect(firstPage.entries).toHaveLength(25);
    expect(firstPage.entries[0]).toMatchObject({
      at: "2026-11-10T09:00:00.000Z",
      action: "Deactivated",
      target: { label: "Lena Leaver (@lena)" },
      changes: ["state: active → deactivated"],
    });
    expect(firstPage.entries[2]).toMatchObject({ target: { label: "Person 0" }, changes: ["job title: Old → New"] });
    expect((first.data as { actors: { email: string }[] }).actors.map((actor) => actor.email)).toEqual([
      "ada@example.com",
      "bob@example.com",
    ]);
    const second = await screen("?page=2");
    expect((second.data as { entries: unknown[] }).entries).toHaveLength(7);

    expect((await screen("?action=deactivate")).data).toMatchObject({ shown: 2 });
    expect((await screen("?actor=bob%40example.com")).data).toMatchObject({ shown: 2 });
    expect((await screen("?q=person%201")).data).toMatchObject({ shown: 11 }); // Person 1, 10–19
    expect((await screen("?q=LEAVER")).data).toMatchObject({ shown: 2 });
    // From 2026-10-28 to 2026-10-30, both days included: Person 0, 1 and 2.
    expect((await screen("?from=2026-10-28&to=2026-10-30")).data).toMatchObject({ shown: 3 });
    const none = await screen("?action=remind");
    expect(none.data).toMatchObject({ shown: 0, entries: [] });

    expect((await screen("?from=2026-02-31")).status).toBe(400);
    expect((await screen("?action=drop")).status).toBe(400);
  });

  it("exports the filtered entries as CSV, newest first, with each change on its own line", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    await seedEntries(3, new Date("2026-10-30T12:00:00Z"));
    await seedEntries(1, new Date("2026-11-10T09:00:00Z"), {
      action: "delete",
      targetKind: "brand",
      targetId: "7",
      targetLabel: "=HYPERLINK(1)",
      changes: {},
    });
    const csv = async (query: string) => {
      const response = (await auditCsv({
        request: getRequest(`/admin/export/audit.csv${query}`, admin.cookie),
        params: {},
        context: {},
      } as never)) as Response;
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(response.headers.get("content-disposition")).toMatch(
        /^attachment; filename="namecard-audit-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      // As a spreadsheet reads it: the byte-order mark included.
      return new TextDecoder("utf-8", { ignoreBOM: true }).decode(await response.arrayBuffer());
    };
    const all = await csv("");
    expect(all.startsWith("\uFEFF")).toBe(true);
    const rows = parse(all.slice(1)) as string[][];
    expect(rows[0]).toEqual([
      "When (UTC)",
      "Administrator",
      "Administrator email",
      "Action",
      "Target kind",
      "Target id",
      "Target",
      "Changes",
    ]);
    expect(rows[1]).toEqual([
      "2026-11-10T09:00:00.000Z",
      "Ada Admin",
      "ada@example.com",
      "delete",
      "brand",
      "7",
      "'=HYPERLINK(1)",
      "",
    ]);
    expect(rows[2]).toEqual([
      "2026-10-30T12:00:00.000Z",
      "Ada Admin",
      "ada@example.com",
      "update",
      "profile",
      "p0",
      "Person 0",
      "job title: Old → New",
    ]);
    expect(rows).toHaveLength(5);

    const filtered = await csv("?action=update&from=2026-10-29");
    expect(parse(filtered.slice(1))).toHaveLength(3); // header, Person 0 and Person 1
    expect(filtered).not.toContain("HYPERLINK");
  });

  it("tells a member when an administrator last changed their card, and not for their own edits", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const member = await createMember({ firstName: "Mo", lastName: "Member" });
    const shown = async () => {
      const result = await run(editLoader, getRequest("/profile/edit", member.cookie), {}, member.viewer);
      return (result.data as { adminChangedOn: string | null }).adminChangedOn;
    };
    expect(await shown()).toBeNull();
    await db.insert(auditLog).values({
      actorId: member.id,
      actorName: "Mo Member",
      actorEmail: member.email,
      action: "update",
      targetKind: "profile",
      targetId: member.profile.id,
      targetLabel: "Mo Member",
    });
    expect(await shown()).toBeNull();

    await send(admin, profilesAction, "/admin/profiles", {
      ...cardFields({ intent: "update", id: member.profile.id, firstName: "Mo", lastName: "Member" }),
      username: member.profile.username,
      email: member.email,
      title: "Changed by the office",
    });
    const today = new Intl.DateTimeFormat("en-GB", {
      day: "numeric",
      month: "long",
      year: "numeric",
      timeZone: "UTC",
    }).format(new Date());
    expect(await shown()).toBe(today);
    const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(auditLog);
    expect(count?.n).toBe(2);
  });

  it("a member's own rename, with the old and new name only, and none of their other edits", async () => {
    const member = await createMember({ firstName: "Remy", lastName: "Renamer" });
    const own = (fields: Record<string, string>) =>
      send(
        member,
        editAction,
        "/profile/edit",
        cardFields({ firstName: "Remy", lastName: "Renamer", email: member.email, ...fields }),
      );
    expect((await own({ username: member.profile.username, title: "Just a title" })).status).toBe(302);
    expect(await entries()).toEqual([]);
    expect((await own({ username: "remy.r", title: "And a rename" })).status).toBe(302);
    const recorded = await entries();
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({
      actorEmail: member.email,
      action: "update",
      targetId: member.profile.id,
      changes: { username: [member.profile.username, "remy.r"] },
    });
  });
});

describe("a bulk action in the audit log", () => {
  it("is one row that opens to each card it changed, one entry per card underneath and in the export", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const [aurora] = await db.insert(brands).values({ name: "Aurora Foods" }).returning();
    const people = await Promise.all(
      ["Ana", "Ben", "Cai"].map((firstName) => insertCard({ firstName, lastName: "Mover" })),
    );
    await seedEntries(2, new Date("2020-01-02T12:00:00Z"));
    const form = new FormData();
    form.set("intent", "set-brand");
    form.set("redirectTo", "/admin/profiles");
    form.set("brandId", String(aurora!.id));
    for (const person of people) form.append("ids", person.id);
    const moved = await run(profilesAction, await multipartRequest("/admin/profiles", form), {}, admin.viewer);
    expect(moved.status).toBe(302);
    expect(await db.select().from(auditLog).where(eq(auditLog.action, "update"))).toHaveLength(5);

    const result = await run(auditLoader, getRequest("/admin/audit", admin.cookie), {}, admin.viewer);
    const data = result.data as {
      shown: number;
      entries: { target: { label: string }; changes: string[]; more: { target: { label: string } }[] }[];
    };
    // The move is one row, newest first, above the two older entries.
    expect(data.shown).toBe(3);
    const [bulk] = data.entries;
    expect(bulk?.changes).toEqual(["brand: — → Aurora Foods"]);
    const labels = [bulk?.target.label, ...(bulk?.more ?? []).map((entry) => entry.target.label)];
    expect(labels.map((label) => label?.split(" ")[0]).sort()).toEqual(["Ana", "Ben", "Cai"]);

    // Searching for one of them finds that card's entry alone.
    const one = await run(auditLoader, getRequest("/admin/audit?q=Ben", admin.cookie), {}, admin.viewer);
    const found = one.data as typeof data;
    expect(found.shown).toBe(1);
    expect(found.entries[0]?.target.label).toMatch(/^Ben Mover/);
    expect(found.entries[0]?.more).toEqual([]);

    const csv = (await auditCsv({
      request: getRequest("/admin/export/audit.csv", admin.cookie),
      params: {},
      context: {},
    } as never)) as Response;
    const rows = parse((await csv.text()).replace(/^\uFEFF/, ""), { columns: true }) as Record<string, string>[];
    expect(rows.filter((row) => Object.values(row).some((value) => value.includes("Aurora Foods")))).toHaveLength(3);
  });
});
