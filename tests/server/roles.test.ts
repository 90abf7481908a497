import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ROLE_MESSAGES } from "~/.server/accounts/roles";
import { getAuth } from "~/.server/http/auth";
import { getOptionalViewer, requireAdministration } from "~/.server/http/authz";
import { readToast } from "~/.server/http/toast";
import { db } from "~/.server/platform/db/client";
import { auditLog, profiles, sessions, users } from "~/.server/platform/db/schema";
import { DEACTIVATED_SIGN_IN } from "~/.server/profiles/deactivation";
import { action as profilesAction, loader as profilesLoader } from "~/routes/admin/profiles";
import { action as authAction } from "~/routes/auth/auth";
import {
  cookieFrom,
  createMember,
  formRequest,
  getRequest,
  insertCard,
  MEMBER_PASSWORD,
  multipartRequest,
  present,
  run,
} from "./helpers";

/**
 * Every session starts in one place, whichever way the person came: it
 * refuses an account that may not hold one, records the sign-in and links
 * the person's card. Administrators are a role kept with the account, given
 * and taken by administrators and read with each request; the addresses in
 * ADMIN_EMAILS stay administrators whatever it says.
 */

type Member = Awaited<ReturnType<typeof createMember>>;

async function changeRole(admin: Member, profileId: string, intent: "make-admin" | "remove-admin") {
  const form = new FormData();
  form.set("intent", intent);
  form.set("id", profileId);
  form.set("redirectTo", "/admin/profiles");
  const answer = await run(profilesAction, await multipartRequest("/admin/profiles", form), {}, admin.viewer);
  return { ...answer, toast: await readToast(cookieFrom(answer.headers)) };
}

async function roleEntries() {
  return db.select().from(auditLog).where(eq(auditLog.action, "role"));
}

async function accountRole(userId: string) {
  const [row] = await db.select({ role: users.role }).from(users).where(eq(users.id, userId));
  return row?.role;
}

describe("one way into a session", () => {
  it("a password sign-in records when it happened and links the card prepared for the address since", async () => {
    const member = await createMember({ firstName: "Pia", lastName: "Later" });
    // Their card is deleted, and an administrator prepares a new one for the same address.
    await db.delete(profiles).where(eq(profiles.id, member.profile.id));
    const card = await insertCard({ email: member.email, firstName: "Pia", lastName: "Later" });
    await db.update(users).set({ lastSignInAt: null }).where(eq(users.id, member.id));

    const signingIn = Date.now();
    const signedIn = await run(
      authAction,
      formRequest("/auth", { intent: "signin", email: member.email, password: MEMBER_PASSWORD }),
    );
    expect(signedIn.status).toBe(302);
    // Linked when the session started, before any page was opened.
    const [linked] = await db.select({ userId: profiles.userId }).from(profiles).where(eq(profiles.id, card.id));
    expect(linked?.userId).toBe(member.id);
    const [account] = await db.select({ at: users.lastSignInAt }).from(users).where(eq(users.id, member.id));
    expect(present(account?.at, "the sign-in time").getTime()).toBeGreaterThanOrEqual(signingIn);
  });

  it("gives no session, however it is asked for, to the owner of a deactivated card", async () => {
    const member = await createMember();
    await db.update(profiles).set({ deactivatedAt: new Date() }).where(eq(profiles.id, member.profile.id));
    await db.delete(sessions).where(eq(sessions.userId, member.id));
    // The way every sign-in ends, whether a password, a link, an invitation or a provider led there.
    const context = await getAuth().$context;
    await expect(context.internalAdapter.createSession(member.id)).rejects.toMatchObject({
      body: { code: "CARD_DEACTIVATED", message: DEACTIVATED_SIGN_IN },
    });
    expect(await db.select().from(sessions).where(eq(sessions.userId, member.id))).toEqual([]);
  });
});

describe("administrators are a role", () => {
  it("an administrator makes a member an administrator: they reach administrator pages at once, and the audit log says who did it", async () => {
    const admin = await createMember({ email: "admin@example.com", firstName: "Ada", lastName: "Admin" });
    const member = await createMember({ firstName: "Rui", lastName: "Raised" });
    expect((await getOptionalViewer(getRequest("/", member.cookie)))?.isAdmin).toBe(false);

    const made = await changeRole(admin, member.profile.id, "make-admin");
    expect(made).toMatchObject({ status: 302, location: "/admin/profiles" });
    expect(made.toast?.text).toBe("Rui Raised is now an administrator.");
    expect(await accountRole(member.id)).toBe("admin");
    // Their next request, in the session they already hold.
    const viewer = await requireAdministration(getRequest("/admin/dashboard", member.cookie));
    expect(viewer.role).toBe("admin");
    const list = await run(profilesLoader, getRequest("/admin/profiles?q=Raised", admin.cookie), {}, admin.viewer);
    expect((list.data as { management: { rows: unknown[] } }).management.rows).toEqual([
      expect.objectContaining({ id: member.profile.id, admin: true, adminByConfiguration: false }),
    ]);
    expect(await roleEntries()).toEqual([
      expect.objectContaining({
        actorEmail: "admin@example.com",
        targetId: member.profile.id,
        changes: { role: ["Member", "Administrator"] },
      }),
    ]);

    // Asking again changes nothing and records nothing.
    await changeRole(admin, member.profile.id, "make-admin");
    expect(await roleEntries()).toHaveLength(1);

    // Taken back: a member again on their next request, and the new administrator may take it from another.
    const taken = await changeRole(admin, member.profile.id, "remove-admin");
    expect(taken.toast?.text).toBe("Rui Raised is a member again, no longer an administrator.");
    const again = await getOptionalViewer(getRequest("/", member.cookie));
    expect(again).toMatchObject({ role: "member", isAdmin: false });
    await expect(requireAdministration(getRequest("/admin/dashboard", member.cookie))).rejects.toMatchObject({
      status: 302,
    });
    expect((await roleEntries()).map((entry) => entry.changes)).toEqual([
      { role: ["Member", "Administrator"] },
      { role: ["Administrator", "Member"] },
    ]);
  });

  it("refuses an unclaimed card, a deactivated one, an administrator's own role and an address in ADMIN_EMAILS, with a message each, and changes nothing", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const unclaimed = await insertCard();
    const leaving = await createMember();
    await db.update(profiles).set({ deactivatedAt: new Date() }).where(eq(profiles.id, leaving.profile.id));
    const helper = await createMember();
    await changeRole(admin, helper.profile.id, "make-admin");
    const helperViewer = present(await getOptionalViewer(getRequest("/", helper.cookie)), "the new administrator");

    const refusals = [
      [await changeRole(admin, unclaimed.id, "make-admin"), ROLE_MESSAGES.unclaimed],
      [await changeRole(admin, leaving.profile.id, "make-admin"), ROLE_MESSAGES.deactivated],
      [await changeRole({ ...helper, viewer: helperViewer }, helper.profile.id, "remove-admin"), ROLE_MESSAGES.self],
      [
        await changeRole({ ...helper, viewer: helperViewer }, admin.profile.id, "remove-admin"),
        ROLE_MESSAGES.configured("admin@example.com"),
      ],
    ] as const;
    for (const [answer, message] of refusals) {
      expect(answer).toMatchObject({ status: 302, location: "/admin/profiles" });
      expect(answer.toast).toMatchObject({ text: message, tone: "error" });
    }
    expect(await accountRole(leaving.id)).toBe("member");
    expect(await accountRole(helper.id)).toBe("admin");
    expect(await roleEntries()).toHaveLength(1);
  });

  it("a member cannot give anyone a role, their own included", async () => {
    const member = await createMember();
    const form = new FormData();
    form.set("intent", "make-admin");
    form.set("id", member.profile.id);
    const answer = await run(profilesAction, await multipartRequest("/admin/profiles", form), {}, member.viewer);
    expect(answer.status).toBe(403);
    expect(await accountRole(member.id)).toBe("member");
    expect(await roleEntries()).toEqual([]);
  });
});
