import { desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/.server/platform/db/client";
import { auditLog, profiles } from "~/.server/platform/db/schema";
import { MANAGER_MESSAGES } from "~/.server/profiles/managers";
import { action as profilesAction } from "~/routes/admin/profiles";
import { loader as cardLoader } from "~/routes/profile/$username";
import { createMember, getRequest, insertCard, multipartRequest, run, saveOwnCard } from "./helpers";

/**
 * Who reports to whom: named by an administrator, shown to signed-in
 * colleagues on both cards, never to a visitor; a person cannot report to
 * themselves, to a deactivated card, or to someone who reports to them.
 */

type Member = Awaited<ReturnType<typeof createMember>>;
type Card = Awaited<ReturnType<typeof insertCard>>;

async function setManager(admin: Member, card: Card, manager: string) {
  const [current] = await db.select().from(profiles).where(eq(profiles.id, card.id));
  const form = new FormData();
  const values = {
    intent: "update",
    id: card.id,
    firstName: current!.firstName,
    lastName: current!.lastName,
    username: current!.username,
    email: current!.email,
    version: current!.updatedAt.toISOString(),
    manager,
  };
  for (const [key, value] of Object.entries(values)) form.set(key, value);
  return run(profilesAction, await multipartRequest("/admin/profiles", form), {}, admin.viewer);
}

const managerOf = async (card: Card) =>
  (await db.select({ id: profiles.managerId }).from(profiles).where(eq(profiles.id, card.id)))[0]?.id;

type Team = { manager: { username: string } | null; reports: { username: string }[] } | null;
const teamOn = async (card: Card, cookie?: string) =>
  (
    (await run(cardLoader, getRequest(`/profile/${card.username}`, cookie), { username: card.username })).data as {
      team: Team;
    }
  ).team;

describe("manager and reports", () => {
  it("an administrator names a manager; colleagues see Reports to and the direct reports, a visitor sees neither", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const colleague = await createMember();
    const lead = await insertCard({ firstName: "Lena", lastName: "Lead", title: "Head of Logistics" });
    const report = await insertCard({ firstName: "Rui", lastName: "Report" });

    const saved = await setManager(admin, report, `@${lead.username.toUpperCase()}`);
    expect(saved.status, JSON.stringify(saved.data)).toBe(302);
    expect(await managerOf(report)).toBe(lead.id);
    // The audit log names the manager as people know them.
    const [entry] = await db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1);
    expect(entry?.changes).toEqual({ manager: [null, `@${lead.username}`] });

    expect((await teamOn(report, colleague.cookie))?.manager).toMatchObject({ username: lead.username });
    expect((await teamOn(lead, colleague.cookie))?.reports).toEqual([
      { firstName: "Rui", lastName: "Report", username: report.username, title: null },
    ]);
    expect(await teamOn(report)).toBeNull();
    expect(await teamOn(lead)).toBeNull();

    // By email too; and an empty field clears it.
    expect((await setManager(admin, report, lead.email)).status).toBe(302);
    expect(await managerOf(report)).toBe(lead.id);
    expect((await setManager(admin, report, "")).status).toBe(302);
    expect(await managerOf(report)).toBeNull();
  });

  it("refuses a cycle, the person themselves, a deactivated or unknown manager, with a message and no change", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const top = await insertCard({ firstName: "Tia", lastName: "Top" });
    const middle = await insertCard({ firstName: "Mo", lastName: "Middle" });
    const bottom = await insertCard({ firstName: "Bo", lastName: "Bottom" });
    const gone = await insertCard({ firstName: "Gus", lastName: "Gone", deactivatedAt: new Date() });
    expect((await setManager(admin, middle, top.username)).status).toBe(302);
    expect((await setManager(admin, bottom, middle.username)).status).toBe(302);

    const refused = async (card: Card, manager: string, message: string) => {
      const before = await managerOf(card);
      const result = await setManager(admin, card, manager);
      expect(result.status).toBe(400);
      expect((result.data as { fieldErrors: Record<string, string[]> }).fieldErrors.manager).toEqual([message]);
      expect(await managerOf(card)).toBe(before);
    };
    await refused(top, bottom.username, MANAGER_MESSAGES.cycle("Bo Bottom"));
    await refused(top, middle.username, MANAGER_MESSAGES.cycle("Mo Middle"));
    await refused(top, top.username, MANAGER_MESSAGES.self);
    await refused(top, gone.username, MANAGER_MESSAGES.deactivated);
    await refused(top, "nobody.here", MANAGER_MESSAGES.unknown);
  });

  it("ignores a manager a member sends for their own card", async () => {
    const member = await createMember();
    const lead = await insertCard();
    const result = await saveOwnCard(member, { manager: lead.username });
    expect(result.status).toBe(302);
    const [after] = await db.select().from(profiles).where(eq(profiles.id, member.profile.id));
    expect(after?.managerId).toBeNull();
  });
});
