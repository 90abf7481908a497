import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireViewer } from "~/.server/http/authz";
import { readToast } from "~/.server/http/toast";
import { viewInvitation } from "~/.server/invitations/accept";
import { issueInvitationMails, RESEND_AFTER_MS, sendDueReminders } from "~/.server/invitations/invitations";
import {
  claimDueJobs,
  LEASE_MS,
  MAX_ATTEMPTS,
  processDueJobs,
  retryDelayMs,
  startMailQueue,
} from "~/.server/invitations/mail-queue";
import { db } from "~/.server/platform/db/client";
import {
  accounts,
  auditLog,
  brands,
  identityProviderDomains,
  identityProviders,
  invitations,
  mailJobs,
  profiles,
  siteSettings,
  users,
} from "~/.server/platform/db/schema";
import { type MailMessage, sendMail } from "~/.server/platform/mail";
import { setCardState } from "~/.server/profiles/deactivation";
import { sealSecret } from "~/.server/sso/secrets";
import { contrastRatio } from "~/lib/color";
import { loader as previewLoader } from "~/routes/admin/invitation-preview.html";
import { action as profilesAction, loader as profilesLoader } from "~/routes/admin/profiles";
import { action as settingsAction } from "~/routes/admin/settings/invitations";
import { action as authAction } from "~/routes/auth/auth";
import { action as invitationAction, loader as invitationLoader } from "~/routes/auth/invitation";
import { action as stopAction, loader as stopLoader } from "~/routes/invitations/stop";
import { expectConsoleError } from "../support/console";
import {
  cookieFrom,
  createMember,
  formRequest,
  getRequest,
  insertCard,
  latestMail,
  MEMBER_PASSWORD,
  makeBrandAdministrator,
  multipartRequest,
  present,
  run,
} from "./helpers";

const DAY = 24 * 60 * 60 * 1000;
const NEW_PASSWORD = "violet harbour lantern";

/** Every mail the queue hands over, also written to the real `.eml` outbox. */
const sent: MailMessage[] = [];
async function send(message: MailMessage) {
  sent.push(message);
  await sendMail(message);
}
function lastLinkTo(address: string) {
  const mail = [...sent].reverse().find((message) => message.to === address);
  return present(mail?.link, `a link mailed to ${address}`);
}
const tokenOf = (link: string) => present(new URL(link).searchParams.get("token"), "the link's token");

/** Gives the card to a new member (whose own card goes), as a claim by someone else would. */
async function giveToSomeone(cardId: string, email: string) {
  const member = await createMember({ email });
  await db.delete(profiles).where(eq(profiles.userId, member.id));
  await db.update(profiles).set({ userId: member.id }).where(eq(profiles.id, cardId));
}

async function adminPost(fields: Record<string, string | string[]>, admin: Awaited<ReturnType<typeof createMember>>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const one of Array.isArray(value) ? value : [value]) form.append(name, one);
  }
  const result = await run(profilesAction, await multipartRequest("/admin/profiles", form), {}, admin.viewer);
  return { ...result, toast: (await readToast(cookieFrom(result.headers)))?.text };
}

async function openInvitation(link: string) {
  const url = new URL(link);
  return run(invitationLoader, getRequest(`${url.pathname}${url.search}`));
}

async function claimWith(link: string, password: string | null) {
  const fields: Record<string, string> = { token: tokenOf(link) };
  if (password !== null) fields.password = password;
  return run(invitationAction, formRequest("/auth/invitation", fields));
}

describe("invitations", () => {
  it("shows the invitation as it will arrive, sends a test only to the administrator, and cancels a bulk send still queued", async () => {
    await db.insert(siteSettings).values({ id: 1, companyName: "Acme Group" });
    const admin = await createMember({ email: "admin@example.com" });
    const cards = [await insertCard({ email: "a1@example.org" }), await insertCard({ email: "a2@example.org" })];
    const list = await run(profilesLoader, getRequest("/admin/profiles"), {}, admin.viewer);
    const summary = (list.data as { management: { invitations: { preview: { subject: string; text: string } } } })
      .management.invitations;
    expect(summary.preview.subject).toBe("Acme Group has prepared a business card for you");
    expect(summary.preview.text).toContain("Claim my card: (each person's own link)");

    const test = await adminPost({ intent: "test-invitation", redirectTo: "/admin/profiles" }, admin);
    expect(test.toast).toBe("A test invitation is on its way to admin@example.com.");
    const mail = present(latestMail("admin@example.com"), "the test invitation");
    expect(mail.subject).toBe("[Test] Acme Group has prepared a business card for you");
    // Its link claims nothing, and nobody was invited.
    expect((await openInvitation(present(mail.link, "the link"))).data).toMatchObject({ view: { state: "invalid" } });
    expect(await db.select().from(invitations)).toEqual([]);

    expect((await adminPost({ intent: "invite-all", redirectTo: "/admin/profiles" }, admin)).toast).toBe(
      "Invitation on its way to 2 people.",
    );
    const cancelled = await adminPost({ intent: "cancel-queued", redirectTo: "/admin/profiles" }, admin);
    expect(cancelled.toast).toBe("2 invitation mails will not be sent.");
    expect(await processDueJobs({ send })).toMatchObject({ sent: 0 });
    // Both are "Not invited" again, and the cancellation is on the record.
    expect(await db.select().from(invitations)).toEqual([]);
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.action, "discard"));
    expect(entry?.targetLabel).toBe("2 queued invitation mails");
    expect(cards).toHaveLength(2);
  });

  it("draws a light brand's mail readably: the button's lettering and the brand's name at 4.5:1 or better", async () => {
    await db.insert(siteSettings).values({ id: 1, companyName: "Acme Group" });
    const [brand] = await db.insert(brands).values({ name: "Sunbeam", primaryColor: "#facc15" }).returning();
    const admin = await createMember({ email: "admin@example.com" });
    const card = await insertCard({ email: "sunny@example.org", companyBrandId: present(brand, "brand").id });
    await adminPost({ intent: "invite", id: card.id, redirectTo: "/admin/profiles" }, admin);
    expect(await processDueJobs({ send })).toMatchObject({ sent: 1, failed: 0 });

    const mail = present(latestMail("sunny@example.org"), "the invitation in the outbox");
    const body = mail.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
    const button = present(
      /background:(#[0-9a-f]{6});color:(#[0-9a-f]{6})[^>]*>Claim my card/.exec(body),
      "the button",
    );
    expect(contrastRatio(present(button[1], "fill"), present(button[2], "lettering"))).toBeGreaterThanOrEqual(4.5);
    const name = present(/color:(#[0-9a-f]{6})">Sunbeam</.exec(body), "the brand's name");
    expect(contrastRatio(present(name[1], "ink"), "#ffffff")).toBeGreaterThanOrEqual(4.5);
    // White on the raw yellow would be 1.5:1: that is what the mail no longer does.
    expect(body).not.toContain("background:#facc15;color:#fff");
  });

  it("shows an administrator the invitation as each brand's people receive it, readable in its colours, and sends the one they look at to them as a test", async () => {
    await db.insert(siteSettings).values({ id: 1, companyName: "Acme Group" });
    const [sunbeam, snow, cash] = await db
      .insert(brands)
      .values([
        { name: "Sunbeam", primaryColor: "#facc15" },
        { name: "Snow", primaryColor: "#ffffff" },
        // A name with what a replacement pattern would read as "the text matched".
        { name: "Cash $& Carry", primaryColor: "#0f766e" },
      ])
      .returning();
    const admin = await createMember({ email: "admin@example.com" });

    for (const [brand, name] of [
      [sunbeam, "Sunbeam"],
      [snow, "Snow"],
      [cash, "Cash $&amp; Carry"],
      [null, "Acme Group"],
    ] as const) {
      const preview = await run(
        previewLoader,
        getRequest(`/admin/invitation-preview.html?brand=${brand?.id ?? ""}`, admin.cookie),
      );
      expect(preview.status).toBe(200);
      expect(preview.headers.get("content-security-policy")).toContain("default-src 'none'");
      const html = await present(preview.text, "the preview's body")();
      expect(html).toContain(`<strong>${name} has prepared a business card for you</strong>`);
      const button = present(
        /background:(#[0-9a-f]{6});color:(#[0-9a-f]{6})[^>]*>Claim my card/.exec(html),
        "the button",
      );
      expect(contrastRatio(present(button[1], "fill"), present(button[2], "lettering"))).toBeGreaterThanOrEqual(4.5);
      // Seen on the mail's white at all: a white brand's button is not white.
      expect(contrastRatio(present(button[1], "fill"), "#ffffff")).toBeGreaterThanOrEqual(3);
    }

    const test = await adminPost(
      { intent: "test-invitation", brand: String(snow!.id), redirectTo: "/admin/profiles" },
      admin,
    );
    expect(test.toast).toBe("A test invitation is on its way to admin@example.com.");
    expect(present(latestMail("admin@example.com"), "the test").subject).toBe(
      "[Test] Snow has prepared a business card for you",
    );
  });

  it("shows a brand administrator their brands' invitation only: another brand's, the company's and one that does not exist are not found", async () => {
    const [sunbeam, snow] = await db
      .insert(brands)
      .values([{ name: "Sunbeam" }, { name: "Snow" }])
      .returning();
    const lead = await makeBrandAdministrator(await createMember({ email: "lena@example.org" }), [sunbeam!.id]);
    const member = await createMember({ email: "mia@example.org" });
    const preview = (who: { cookie: string }, brand: string) =>
      run(previewLoader, getRequest(`/admin/invitation-preview.html?brand=${brand}`, who.cookie));

    expect((await preview(lead, String(sunbeam!.id))).status).toBe(200);
    for (const brand of [String(snow!.id), "", "2147483647"]) expect((await preview(lead, brand)).status).toBe(404);
    expect((await preview(lead, "sunbeam")).status).toBe(400);
    // A member has no administration to see it from.
    expect((await preview(member, String(sunbeam!.id))).location).toBe("/directory");

    const refused = await adminPost(
      { intent: "test-invitation", brand: String(snow!.id), redirectTo: "/admin/profiles" },
      lead,
    );
    expect(refused.status).toBe(404);
    expect(latestMail("lena@example.org")).toBeNull();
  });

  it("sends the brand's mail whose link sets the password and signs the person in on their claimed card", async () => {
    await db.insert(siteSettings).values({ id: 1, companyName: "Acme Group" });
    const [brand] = await db
      .insert(brands)
      .values({ name: "Northwind", primaryColor: "#0f766e", logo: "brands/0123456789abcdef.webp" })
      .returning();
    const admin = await createMember({ email: "admin@example.com" });
    const card = await insertCard({ email: "nora@example.org", companyBrandId: present(brand, "brand").id });

    const invited = await adminPost({ intent: "invite", id: card.id, redirectTo: "/admin/profiles" }, admin);
    expect(invited).toMatchObject({ status: 302, location: "/admin/profiles" });
    expect(invited.toast).toBe("Invitation on its way to 1 person.");
    expect(await processDueJobs({ send })).toMatchObject({ sent: 1, failed: 0 });

    // The real message in the outbox: the brand's name, logo (absolute) and colour, HTML and plain text.
    const mail = present(latestMail("nora@example.org"), "the invitation in the outbox");
    expect(mail.subject).toBe("Northwind has prepared a business card for you");
    expect(mail.raw).toContain("Content-Type: text/plain");
    expect(mail.raw).toContain("Content-Type: text/html");
    const body = mail.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
    expect(body).toContain('src="http://localhost:3000/uploads/brands/0123456789abcdef.webp"');
    expect(body).toContain("#0f766e");
    const link = present(mail.link, "the link in the mail");
    expect(link).toMatch(/^http:\/\/localhost:3000\/auth\/invitation\?token=/);

    // Opening the link asks for a password, shows the card it gives in its brand, and uses nothing up.
    expect((await openInvitation(link)).data).toMatchObject({
      view: {
        state: "choose-password",
        card: {
          firstName: card.firstName,
          lastName: card.lastName,
          brand: { name: "Northwind", primaryColor: "#0f766e", logoUrl: "/uploads/brands/0123456789abcdef.webp" },
        },
      },
    });
    const weak = await claimWith(link, "password");
    expect(weak.status).toBe(400);
    expect((await openInvitation(link)).data).toMatchObject({ view: { state: "choose-password" } });

    const claimed = await claimWith(link, NEW_PASSWORD);
    expect(claimed).toMatchObject({ status: 302, location: `/profile/${card.username}` });
    const viewer = await requireViewer(getRequest("/", cookieFrom(claimed.headers)));
    expect(viewer.user.email).toBe("nora@example.org");
    expect(viewer.profile?.id).toBe(card.id);

    // The link worked once.
    expect((await openInvitation(link)).data).toMatchObject({ view: { state: "invalid" } });
    expect((await claimWith(link, NEW_PASSWORD)).status).toBe(400);

    // Profile management shows the card claimed.
    const list = await run(profilesLoader, getRequest("/admin/profiles?invitation=claimed"), {}, admin.viewer);
    const rows = (list.data as { management: { rows: { id: string }[] } }).management.rows;
    expect(rows.map((row) => row.id)).toContain(card.id);
  });

  it("uses the site's company name when the card has no brand, and a link expires after 14 days", async () => {
    await db.insert(siteSettings).values({ id: 1, companyName: "Acme Group" });
    const card = await insertCard({ email: "olga@example.org" });
    const then = new Date("2026-11-01T09:00:00Z");
    await issueInvitationMails({ kind: "invitation", scope: { ids: [card.id] }, now: then });
    await processDueJobs({ now: then, send });
    const link = lastLinkTo("olga@example.org");
    expect(sent.at(-1)?.subject).toBe("Acme Group has prepared a business card for you");
    expect(await viewInvitation(tokenOf(link), new Date(then.getTime() + 13.9 * DAY))).toMatchObject({
      state: "choose-password",
    });
    expect(await viewInvitation(tokenOf(link), new Date(then.getTime() + 14 * DAY))).toEqual({ state: "invalid" });
  });

  it("replaces the older link when a person is invited again, which is once an hour at most", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const card = await insertCard({ email: "pia@example.org" });
    await adminPost({ intent: "invite", id: card.id }, admin);
    await processDueJobs({ send });
    const first = lastLinkTo("pia@example.org");
    // Asked again at once, by a button pressed twice or a script: no second mail.
    const again = await adminPost({ intent: "invite-selected", ids: [card.id] }, admin);
    expect(again.toast).toBe(
      "Nobody was invited: the chosen profiles are claimed, asked for no more invitations, or had one less than an hour ago.",
    );
    expect((await adminPost({ intent: "remind-all" }, admin)).toast).toBe(
      "Nobody is waiting for a reminder (each person gets one an hour at most).",
    );
    expect(await db.select().from(mailJobs).where(eq(mailJobs.profileId, card.id))).toHaveLength(1);
    // An hour later it goes.
    const later = new Date(Date.now() + RESEND_AFTER_MS + 1000);
    expect(await issueInvitationMails({ kind: "invitation", scope: { ids: [card.id] }, now: later })).toEqual({
      queued: 1,
    });
    await processDueJobs({ now: later, send });
    const second = lastLinkTo("pia@example.org");
    expect(second).not.toBe(first);
    expect((await openInvitation(first)).data).toMatchObject({ view: { state: "invalid" } });
    expect((await openInvitation(second)).data).toMatchObject({ view: { state: "choose-password" } });
  });

  it("counts inviting someone again as a reminder, keeps the first invitation's date, and logs it as one", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const card = await insertCard({ email: "rio@example.org" });
    await adminPost({ intent: "invite", id: card.id }, admin);
    const [first] = await db.select().from(invitations).where(eq(invitations.profileId, card.id));
    // Pressed again within the hour, nothing goes; the press says so.
    expect((await adminPost({ intent: "invite", id: card.id }, admin)).toast).toContain("Nobody was invited");
    // Two hours later, the same press sends a reminder, and says so.
    const sent = new Date(Date.now() - 2 * RESEND_AFTER_MS);
    await db.update(invitations).set({ lastSentAt: sent }).where(eq(invitations.profileId, card.id));
    expect((await adminPost({ intent: "invite", id: card.id }, admin)).toast).toBe("Reminder on its way to 1 person.");
    const [after] = await db.select().from(invitations).where(eq(invitations.profileId, card.id));
    expect(after).toMatchObject({ invitedAt: first?.invitedAt, remindersSent: 1 });
    expect(after?.lastSentAt.getTime()).toBeGreaterThan(sent.getTime());
    const [job] = await db.select().from(mailJobs).where(eq(mailJobs.profileId, card.id));
    expect(job?.kind).toBe("reminder");
    const actions = await db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.targetId, card.id))
      .orderBy(auditLog.id);
    expect(actions.map((entry) => entry.action)).toEqual(["invite", "remind"]);
  });

  it("adds the card to an existing account without touching its password", async () => {
    const member = await createMember({ email: "quinn@example.org" });
    await db.delete(profiles).where(eq(profiles.userId, member.id));
    const [before] = await db
      .select({ password: accounts.password })
      .from(accounts)
      .where(eq(accounts.userId, member.id));
    const card = await insertCard({ email: "quinn@example.org" });
    await issueInvitationMails({ kind: "invitation", scope: { ids: [card.id] } });
    await processDueJobs({ send });
    const link = lastLinkTo("quinn@example.org");
    expect((await openInvitation(link)).data).toMatchObject({ view: { state: "existing-account" } });
    // A password sent anyway is not taken.
    const linked = await claimWith(link, null);
    expect(linked.status).toBe(302);
    expect(linked.location).toBe(`/auth?redirectTo=${encodeURIComponent(`/profile/${card.username}`)}`);
    expect(linked.headers.getSetCookie().some((cookie) => cookie.startsWith("better-auth.session_token="))).toBe(false);
    const [row] = await db.select().from(profiles).where(eq(profiles.id, card.id));
    expect(row?.userId).toBe(member.id);
    const [after] = await db
      .select({ password: accounts.password })
      .from(accounts)
      .where(eq(accounts.userId, member.id));
    expect(after?.password).toBe(before?.password);
    expect(MEMBER_PASSWORD).toBeTruthy();
  });

  it("lets the mailbox owner replace a pending sign-up's password that someone else chose", async () => {
    // A stranger signed up first with the invited address and never confirmed it.
    const signUp = await run(
      authAction,
      formRequest("/auth", {
        intent: "signup",
        firstName: "Mallory",
        lastName: "Stranger",
        email: "xena@example.com",
        password: "stranger chosen phrase",
        phone: "",
      }),
    );
    expect(signUp.status).toBe(200);
    const card = await insertCard({ email: "xena@example.com", firstName: "Xena", lastName: "Owner" });
    await issueInvitationMails({ kind: "invitation", scope: { ids: [card.id] } });
    await processDueJobs({ send });
    const link = lastLinkTo("xena@example.com");
    expect((await openInvitation(link)).data).toMatchObject({ view: { state: "choose-password" } });
    const claimed = await claimWith(link, NEW_PASSWORD);
    expect(claimed).toMatchObject({ status: 302, location: `/profile/${card.username}` });

    const signInWith = (password: string) =>
      run(authAction, formRequest("/auth", { intent: "signin", email: "xena@example.com", password, redirectTo: "/" }));
    expect((await signInWith("stranger chosen phrase")).status).toBe(400);
    expect((await signInWith(NEW_PASSWORD)).status).toBe(302);
    const [user] = await db.select().from(users).where(eq(users.email, "xena@example.com"));
    expect(user).toMatchObject({ emailVerified: true, firstName: "Xena", lastName: "Owner" });
  });

  it("invites everyone not yet invited, refuses a bad selection, and filters the list by invitation state", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const a = await insertCard({ email: "a@example.org" });
    const b = await insertCard({ email: "b@example.org" });
    const refused = await adminPost({ intent: "invite-selected", ids: ["not-an-id"] }, admin);
    expect(refused.status).toBe(400);
    expect(await db.select().from(mailJobs)).toEqual([]);
    const none = await adminPost({ intent: "invite-selected" }, admin);
    expect(none.status).toBe(400);

    await adminPost({ intent: "invite", id: a.id }, admin);
    const all = await adminPost({ intent: "invite-all" }, admin);
    expect(all.toast).toBe("Invitation on its way to 1 person.");
    const jobs = await db.select().from(mailJobs);
    expect(jobs.map((job) => job.email).sort()).toEqual(["a@example.org", "b@example.org"]);

    const notInvited = await run(
      profilesLoader,
      getRequest("/admin/profiles?invitation=not-invited"),
      {},
      admin.viewer,
    );
    expect((notInvited.data as { management: { rows: unknown[] } }).management.rows).toEqual([]);
    const invited = await run(profilesLoader, getRequest("/admin/profiles?invitation=invited"), {}, admin.viewer);
    const ids = (invited.data as { management: { rows: { id: string }[] } }).management.rows.map((row) => row.id);
    expect(ids.sort()).toEqual([a.id, b.id].sort());
    expect(b).toBeTruthy();
  });
});

describe("invitations and the rest of offboarding", () => {
  it("records who invited and reminded whom in the audit log", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const card = await insertCard({ email: "audited@example.org", firstName: "Aud", lastName: "Ited" });
    await adminPost({ intent: "invite", id: card.id }, admin);
    // A reminder goes an hour after the last mail at the soonest.
    await db
      .update(invitations)
      .set({ lastSentAt: new Date(Date.now() - RESEND_AFTER_MS) })
      .where(eq(invitations.profileId, card.id));
    await adminPost({ intent: "remind-all" }, admin);
    const entries = await db.select().from(auditLog).orderBy(auditLog.id);
    expect(
      entries.map(({ action, targetKind, targetId, targetLabel, actorEmail }) => [
        action,
        targetKind,
        targetId,
        targetLabel,
        actorEmail,
      ]),
    ).toEqual([
      ["invite", "profile", card.id, "Aud Ited", "admin@example.com"],
      ["remind", "profile", card.id, "Aud Ited", "admin@example.com"],
    ]);
  });

  it("invites and reminds no deactivated card, and its link stops working", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const card = await insertCard({ email: "leaving@example.org" });
    await issueInvitationMails({ kind: "invitation", scope: { ids: [card.id] } });
    await processDueJobs({ send });
    const link = lastLinkTo("leaving@example.org");
    await setCardState({ actor: admin.viewer, profileId: card.id, state: "deactivated" });

    expect((await adminPost({ intent: "invite-all" }, admin)).toast).toBe(
      "Everyone unclaimed has been invited already.",
    );
    expect((await issueInvitationMails({ kind: "invitation", scope: { ids: [card.id] } })).queued).toBe(0);
    expect((await issueInvitationMails({ kind: "reminder", scope: "invited" })).queued).toBe(0);
    await claimWith(link, NEW_PASSWORD);
    const [after] = await db.select().from(profiles).where(eq(profiles.id, card.id));
    expect(after?.userId).toBeNull();
    expect(await db.select().from(users).where(eq(users.email, "leaving@example.org"))).toEqual([]);
  });
});

/** The card's mail waiting to leave. */
function pendingMailOf(cardId: string) {
  return db
    .select()
    .from(mailJobs)
    .where(and(eq(mailJobs.profileId, cardId), eq(mailJobs.status, "pending")));
}

describe("asking for no more invitations", () => {
  async function stopPage(link: string, method: "GET" | "POST", body?: string) {
    const url = new URL(link);
    const request = new Request(`http://localhost:3000${url.pathname}${url.search}`, {
      method,
      ...(body === undefined ? {} : { body, headers: { "content-type": "application/x-www-form-urlencoded" } }),
    });
    return run(method === "GET" ? stopLoader : stopAction, request);
  }

  it("offers a one-click stop in every invitation's headers and footer; opening it changes nothing, the click stops them all", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const card = await insertCard({ email: "uma@example.org" });
    const start = new Date(Date.now() - 2 * DAY);
    await issueInvitationMails({ kind: "invitation", scope: { ids: [card.id] }, now: start });
    await processDueJobs({ now: start, send });

    // The real message: the unsubscribe headers a mail program shows as a button, and the same link at its foot.
    const mail = present(latestMail("uma@example.org"), "the invitation in the outbox");
    const headers = mail.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, " ");
    const header = present(/^List-Unsubscribe: <([^>]+)>\r?$/m.exec(headers)?.[1], "the List-Unsubscribe header");
    expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    expect(header).toMatch(/^http:\/\/localhost:3000\/invitations\/stop\?card=[0-9a-f-]{36}&key=[\w-]{43}$/);
    const body = mail.raw
      .replace(/=\r?\n/g, "")
      .replace(/=3D/g, "=")
      .replace(/&amp;/g, "&");
    expect(body).toContain(`Stop invitations to this address: ${header}`);

    // Opening it (as a mail scanner does) asks, and stops nothing.
    expect(await stopPage(header, "GET")).toMatchObject({ status: 200, data: { state: "active" } });
    await issueInvitationMails({ kind: "reminder", scope: "invited", now: new Date(Date.now() - DAY) });
    expect(await pendingMailOf(card.id)).toHaveLength(1);

    // A key made for another card, a changed key, or none at all: not found, nothing stopped.
    const other = await insertCard({ email: "vic@example.org" });
    for (const forged of [
      header.replace(card.id, other.id),
      header.replace(/key=[\w-]{5}/, "key=AAAAA"),
      header.replace(/&key=.*$/, ""),
      "http://localhost:3000/invitations/stop?card=%00&key=x",
    ]) {
      expect((await stopPage(forged, "POST", "List-Unsubscribe=One-Click")).status).toBe(404);
    }
    expect((await stopPage(header, "GET")).data).toMatchObject({ state: "active" });

    // The mail program's one-click POST stops them, the reminder waiting to leave included.
    expect(await stopPage(header, "POST", "List-Unsubscribe=One-Click")).toMatchObject({
      status: 200,
      data: { state: "stopped" },
    });
    expect(await pendingMailOf(card.id)).toEqual([]);
    expect((await stopPage(header, "GET")).data).toMatchObject({ state: "stopped" });
    // Again: still stopped, no error.
    expect((await stopPage(header, "POST", "")).data).toMatchObject({ state: "stopped" });

    // No invitation, reminder or automatic reminder reaches the address again.
    await db.insert(siteSettings).values({ id: 1, autoReminders: true, reminderAfterDays: 1 });
    expect(await sendDueReminders(new Date(Date.now() + 30 * DAY))).toEqual({ queued: 0 });
    const invited = await adminPost({ intent: "invite", id: card.id }, admin);
    expect(invited.toast).toMatch(/^Nobody was invited/);
    expect((await adminPost({ intent: "remind-all" }, admin)).toast).toMatch(/^Nobody is waiting for a reminder/);
    expect(await pendingMailOf(card.id)).toEqual([]);

    // Profile management says so.
    const list = await run(profilesLoader, getRequest("/admin/profiles"), {}, admin.viewer);
    const rows = (list.data as { management: { rows: { id: string; invitationsStopped: boolean }[] } }).management.rows;
    expect(rows.find((row) => row.id === card.id)?.invitationsStopped).toBe(true);
    expect(rows.find((row) => row.id === other.id)?.invitationsStopped).toBe(false);
  });
});

describe("reminders", () => {
  it("reminds automatically after N days, at most M times, with a fresh link each time", async () => {
    await db.insert(siteSettings).values({ id: 1, autoReminders: true, reminderAfterDays: 3, reminderMaxCount: 2 });
    const card = await insertCard({ email: "rosa@example.org" });
    const start = new Date("2026-11-02T08:00:00Z");
    const at = (days: number) => new Date(start.getTime() + days * DAY);
    await issueInvitationMails({ kind: "invitation", scope: { ids: [card.id] }, now: start });
    await processDueJobs({ now: start, send });
    const invitationLink = lastLinkTo("rosa@example.org");

    expect(await sendDueReminders(at(2.9))).toEqual({ queued: 0 });
    expect(await sendDueReminders(at(3))).toEqual({ queued: 1 });
    // Run again at once (another instance, say): nothing more.
    expect(await sendDueReminders(at(3))).toEqual({ queued: 0 });
    await processDueJobs({ now: at(3), send });
    expect(sent.at(-1)?.subject).toMatch(/^Reminder: /);
    const reminderLink = lastLinkTo("rosa@example.org");
    expect(await viewInvitation(tokenOf(invitationLink), at(3))).toEqual({ state: "invalid" });
    expect(await viewInvitation(tokenOf(reminderLink), at(3))).toMatchObject({ state: "choose-password" });

    expect(await sendDueReminders(at(5))).toEqual({ queued: 0 });
    expect(await sendDueReminders(at(6))).toEqual({ queued: 1 });
    expect(await sendDueReminders(at(30))).toEqual({ queued: 0 });
    const [state] = await db.select().from(invitations).where(eq(invitations.profileId, card.id));
    expect(state).toMatchObject({ remindersSent: 2, invitedAt: start });
  });

  it("saves the reminder settings and refuses bad numbers with a clear message, saving nothing", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const save = async (fields: Record<string, string>) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.set(name, value);
      return run(settingsAction, await multipartRequest("/admin/settings/invitations", form), {}, admin.viewer);
    };
    const refused = await save({ autoReminders: "on", reminderAfterDays: "0", reminderMaxCount: "eleven" });
    expect(refused.status).toBe(400);
    expect((refused.data as { fieldErrors: Record<string, string[]> }).fieldErrors).toMatchObject({
      reminderAfterDays: ["Enter a whole number of days from 1 to 365"],
      reminderMaxCount: ["Enter a whole number of reminders from 1 to 10"],
    });
    expect(await db.select().from(siteSettings)).toEqual([]);

    expect((await save({ autoReminders: "on", reminderAfterDays: "5", reminderMaxCount: "2" })).status).toBe(302);
    const [row] = await db.select().from(siteSettings);
    expect(row).toMatchObject({ autoReminders: true, reminderAfterDays: 5, reminderMaxCount: 2 });
  });

  it("sends no automatic reminder while they are switched off, and none to a claimed card", async () => {
    const card = await insertCard({ email: "sam@example.org" });
    const start = new Date("2026-11-02T08:00:00Z");
    await issueInvitationMails({ kind: "invitation", scope: { ids: [card.id] }, now: start });
    expect(await sendDueReminders(new Date(start.getTime() + 60 * DAY))).toEqual({ queued: 0 });
    await db.insert(siteSettings).values({ id: 1, autoReminders: true });
    await giveToSomeone(card.id, "someone@example.org");
    expect(await sendDueReminders(new Date(start.getTime() + 60 * DAY))).toEqual({ queued: 0 });
  });

  it("lets the administrator remind everyone invited but not claimed", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const a = await insertCard({ email: "t1@example.org" });
    await insertCard({ email: "t2@example.org" });
    await issueInvitationMails({
      kind: "invitation",
      scope: { ids: [a.id] },
      now: new Date(Date.now() - 2 * 3_600_000),
    });
    const reminded = await adminPost({ intent: "remind-all" }, admin);
    expect(reminded.toast).toBe("Reminder on its way to 1 person.");
    const [state] = await db.select().from(invitations).where(eq(invitations.profileId, a.id));
    expect(state?.remindersSent).toBe(1);
  });
});

describe("the mail queue", () => {
  let server: SMTPServer;
  let smtpUrl = "";
  let refusing = true;
  const received: string[] = [];

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (address.address.startsWith("nobody")) {
          callback(Object.assign(new Error("5.1.1 No such mailbox here"), { responseCode: 550 }));
          return;
        }
        callback();
      },
      onMailFrom(_address, _session, callback) {
        if (refusing) {
          const error = Object.assign(new Error("Mailbox service busy, try later"), { responseCode: 451 });
          callback(error);
          return;
        }
        callback();
      },
      onData(stream, session, callback) {
        stream.on("data", () => {});
        stream.on("end", () => {
          received.push(...session.envelope.rcptTo.map((rcpt) => rcpt.address));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    smtpUrl = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("retries a failing SMTP server with growing waits, gives up, shows the failure, and sends on retry (recorded)", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const card = await insertCard({ email: "uma@example.org" });
    const throughSmtp = (message: MailMessage) => sendMail(message, smtpUrl);
    let now = new Date("2026-11-10T10:00:00Z");
    await issueInvitationMails({ kind: "invitation", scope: { ids: [card.id] }, now });
    refusing = true;
    expectConsoleError(/^\[mail-queue\] invitation to uma@example\.org failed \(try \d of 5/);

    const waits: number[] = [];
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const run = await processDueJobs({ now, send: throughSmtp });
      expect(run).toMatchObject(attempt < MAX_ATTEMPTS ? { retry: 1 } : { failed: 1 });
      const [job] = await db.select().from(mailJobs);
      if (attempt < MAX_ATTEMPTS) {
        waits.push(present(job, "the job").runAt.getTime() - now.getTime());
        // Not due a moment before its wait is over.
        expect(await processDueJobs({ now: new Date(job!.runAt.getTime() - 1000), send: throughSmtp })).toMatchObject({
          retry: 0,
          failed: 0,
        });
        now = job!.runAt;
      } else {
        expect(job).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS });
        expect(job?.lastError).toContain("Mailbox service busy");
      }
    }
    expect(waits).toEqual([1, 2, 3, 4].map((attempts) => retryDelayMs(attempts)));
    expect(waits[1]).toBe(2 * (waits[0] ?? 0));
    expect(received).toEqual([]);

    // The administrator sees it on profile management…
    const list = await run(profilesLoader, getRequest("/admin/profiles"), {}, admin.viewer);
    const summary = (list.data as { management: { invitations: { failedCount: number; failed: unknown[] } } })
      .management.invitations;
    expect(summary.failedCount).toBe(1);
    expect(summary.failed[0]).toMatchObject({ email: "uma@example.org", kind: "invitation", attempts: MAX_ATTEMPTS });

    // …and retries once the server works again.
    refusing = false;
    const retried = await adminPost({ intent: "retry-mail" }, admin);
    expect(retried.toast).toBe("Trying again to send 1 mail.");
    // Who sent the failed mail again, and to whom, is in the audit log.
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.action, "retry"));
    expect(entry).toMatchObject({
      actorEmail: admin.email,
      targetKind: "mail",
      targetLabel: "1 mail",
      changes: { to: [null, "uma@example.org"] },
    });
    expect(await processDueJobs({ send: throughSmtp })).toMatchObject({ sent: 1 });
    expect(received).toEqual(["uma@example.org"]);
    expect(await processDueJobs({ send: throughSmtp })).toMatchObject({ sent: 0 });
    expect(received).toEqual(["uma@example.org"]);
  });

  it("gives up at once on a mail the server refuses for good, and goes on with the others", async () => {
    const gone = await insertCard({ email: "nobody.here@example.org" });
    const fine = await insertCard({ email: "fine@example.org" });
    await issueInvitationMails({ kind: "invitation", scope: { ids: [gone.id, fine.id] } });
    refusing = false;
    expectConsoleError(
      /^\[mail-queue\] invitation to nobody\.here@example\.org failed \(try 1 of 5, giving up\): .*No such mailbox/,
    );
    const run = await processDueJobs({ send: (message) => sendMail(message, smtpUrl) });
    expect(run).toMatchObject({ sent: 1, failed: 1, retry: 0 });
    const jobs = await db.select().from(mailJobs).orderBy(mailJobs.email);
    expect(jobs.map(({ email, status, attempts }) => ({ email, status, attempts }))).toEqual([
      { email: "fine@example.org", status: "sent", attempts: 1 },
      { email: "nobody.here@example.org", status: "failed", attempts: 1 },
    ]);
    expect(received).toContain("fine@example.org");
  });

  it("spends one try of one mail while the mail server is out of reach, not every queued mail's tries", async () => {
    const cards = await Promise.all(
      Array.from({ length: 6 }, (_, index) => insertCard({ email: `down${index}@example.org` })),
    );
    await issueInvitationMails({ kind: "invitation", scope: { ids: cards.map((card) => card.id) } });
    // A port where nothing listens: no answer at all.
    const probe = new SMTPServer({ logger: false });
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const closedPort = (probe.server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    expectConsoleError(/^\[mail-queue\] invitation to down\d@example\.org failed \(try 1 of 5\): .*ECONNREFUSED/);

    const run = await processDueJobs({ send: (message) => sendMail(message, `smtp://127.0.0.1:${closedPort}`) });
    expect(run).toMatchObject({ sent: 0, retry: 1, failed: 0 });
    const jobs = await db.select().from(mailJobs);
    expect(jobs.filter((job) => job.attempts === 1)).toHaveLength(1);
    // The others were given back untried: due, unclaimed, every try left.
    const untried = jobs.filter((job) => job.attempts === 0);
    expect(untried).toHaveLength(5);
    expect(untried.every((job) => job.status === "pending" && job.lockedUntil === null)).toBe(true);
  });

  it("sends each mail once when a round lasts longer than its lease and two workers share the queue", async () => {
    const cards = await Promise.all(
      Array.from({ length: 12 }, (_, index) => insertCard({ email: `lease${index}@example.org` })),
    );
    await issueInvitationMails({ kind: "invitation", scope: { ids: cards.map((card) => card.id) } });
    const deliveries: string[] = [];
    // A slow mail server: each batch of ten takes several leases to send.
    const slowly = async (message: MailMessage) => {
      await new Promise((resolve) => setTimeout(resolve, 120));
      deliveries.push(message.to);
    };
    const leaseMs = 300;
    const first = processDueJobs({ send: slowly, leaseMs });
    // The second worker comes once the first one's batch has outlived its lease (three sends of 120 ms).
    await expect.poll(() => deliveries.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    const runs = await Promise.all([first, processDueJobs({ send: slowly, leaseMs })]);
    expect(runs.reduce((total, run) => total + run.sent, 0)).toBe(12);
    expect(deliveries).toHaveLength(12);
    expect(new Set(deliveries).size).toBe(12);
    const jobs = await db.select().from(mailJobs);
    expect(jobs.every((job) => job.status === "sent")).toBe(true);
  });

  it("stops after the mail in flight and leaves the rest queued, with their tries", async () => {
    const cards = await Promise.all(
      Array.from({ length: 15 }, (_, index) => insertCard({ email: `stop${index}@example.org` })),
    );
    await issueInvitationMails({ kind: "invitation", scope: { ids: cards.map((card) => card.id) } });
    const deliveries: string[] = [];
    let firstSent!: () => void;
    const first = new Promise<void>((resolve) => (firstSent = resolve));
    const stop = startMailQueue({
      intervalMs: 60_000,
      send: async (message) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        deliveries.push(message.to);
        firstSent();
      },
    });
    await first;
    await stop();
    expect(deliveries.length).toBeGreaterThan(0);
    expect(deliveries.length).toBeLessThan(15);
    const jobs = await db.select().from(mailJobs);
    expect(jobs.filter((job) => job.status === "sent")).toHaveLength(deliveries.length);
    const left = jobs.filter((job) => job.status !== "sent");
    expect(left).toHaveLength(15 - deliveries.length);
    expect(left.every((job) => job.status === "pending" && job.attempts === 0 && job.lockedUntil === null)).toBe(true);
  });

  it("gives each job to one claimer only when several claim at once", async () => {
    const cards = await Promise.all(
      Array.from({ length: 12 }, (_, index) => insertCard({ email: `c${index}@example.org` })),
    );
    const now = new Date("2026-11-10T10:00:00Z");
    await issueInvitationMails({ kind: "invitation", scope: { ids: cards.map((card) => card.id) }, now });
    const claims = await Promise.all([claimDueJobs(now, 5), claimDueJobs(now, 5), claimDueJobs(now, 5)]);
    const ids = claims.flat().map((job) => job.id);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
    expect(await claimDueJobs(now, 5)).toEqual([]);
  });

  it("takes over a job whose worker stopped mid-send once its lease runs out, and not before", async () => {
    const card = await insertCard({ email: "vera@example.org" });
    const now = new Date("2026-11-10T10:00:00Z");
    await issueInvitationMails({ kind: "invitation", scope: { ids: [card.id] }, now });
    await db.update(mailJobs).set({ status: "sending", attempts: 1, lockedUntil: new Date(now.getTime() + LEASE_MS) });
    expect(await processDueJobs({ now, send })).toMatchObject({ sent: 0 });
    expect(await processDueJobs({ now: new Date(now.getTime() + LEASE_MS), send })).toMatchObject({ sent: 1 });
    const [job] = await db.select().from(mailJobs);
    expect(job).toMatchObject({ status: "sent", attempts: 2 });
  });

  it("runs as a worker that sends what is queued at once and stops cleanly", async () => {
    const card = await insertCard({ email: "yara@example.org" });
    const stop = startMailQueue({ intervalMs: 60_000 });
    try {
      await issueInvitationMails({ kind: "invitation", scope: { ids: [card.id] } });
      await expect
        .poll(async () => (await db.select({ status: mailJobs.status }).from(mailJobs))[0]?.status, { timeout: 15_000 })
        .toBe("sent");
      expect(latestMail("yara@example.org")?.subject).toMatch(/has prepared a business card for you$/);
    } finally {
      await stop();
    }
  });

  it("drops a queued invitation whose card was claimed before it left", async () => {
    const card = await insertCard({ email: "wanda@example.org" });
    await issueInvitationMails({ kind: "invitation", scope: { ids: [card.id] } });
    await giveToSomeone(card.id, "other@example.org");
    const before = sent.length;
    expect(await processDueJobs({ send })).toMatchObject({ dropped: 1, sent: 0 });
    expect(sent.length).toBe(before);
  });
});

describe("an invitation to an address of a company's provider", () => {
  it("offers the provider to claim the card, and takes no password where the provider is required", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const [provider] = await db
      .insert(identityProviders)
      .values({
        id: "7f1c1f5e-3c52-4d8e-9d1f-3b3f2a8f0c11",
        name: "Acme Login",
        issuer: "https://login.acme.test",
        clientId: "namecard",
        clientSecret: sealSecret("secret", "7f1c1f5e-3c52-4d8e-9d1f-3b3f2a8f0c11"),
        authorizationOrigin: "https://login.acme.test",
        requireSso: true,
      })
      .returning();
    await db.insert(identityProviderDomains).values({ domain: "acme.test", providerId: present(provider, "it").id });
    const card = await insertCard({ email: "omar@acme.test" });
    await adminPost({ intent: "invite", id: card.id }, admin);
    await processDueJobs({ send });
    const link = lastLinkTo("omar@acme.test");

    const opened = await openInvitation(link);
    expect(opened.data).toMatchObject({ sso: { name: "Acme Login", required: true } });
    const refused = await claimWith(link, NEW_PASSWORD);
    expect(refused.status).toBe(400);
    expect(await db.select().from(accounts)).toHaveLength(1);
  });
});
