import { execFileSync } from "node:child_process";
import { and, eq, sql } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { cardActivity } from "~/.server/analytics/card-activity";
import { countSave, flushSaves } from "~/.server/analytics/card-saves";
import { issueInvitationMails } from "~/.server/invitations/invitations";
import { processDueJobs } from "~/.server/invitations/mail-queue";
import { deleteExpiredLeads, eraseLeadsOf } from "~/.server/leads/retention";
import { formStamp, LEADS_PER_NETWORK, MIN_FILL_MS } from "~/.server/leads/submit";
import { db } from "~/.server/platform/db/client";
import { auditLog, leads, mailJobs, profiles, profileViews, siteSettings } from "~/.server/platform/db/schema";
import type { MailMessage } from "~/.server/platform/mail";
import { LEAD_CONSENT_VERSION } from "~/lib/leads";
import { viewerContext } from "~/middleware/viewer.server";
import { action as leadsAction, loader as leadsLoader } from "~/routes/app/leads";
import { loader as exportLoader } from "~/routes/app/leads-export";
import { action as leadFormAction, loader as leadFormLoader } from "~/routes/profile/lead-form";
import { createMember, formRequest, getRequest, insertCard, nextIp, present, run } from "./helpers";

/**
 * Leads: a visitor shares their details back from a card, with consent; bots
 * and floods are kept out; the owner, and only the owner, reads, notes,
 * exports and deletes them; they go after the retention period or when an
 * administrator erases an address.
 */

/** A stamp from a form shown long enough ago for a person to have filled it. */
const shownAgo = (profileId: string, ms = MIN_FILL_MS + 2_000) => formStamp(profileId, Date.now() - ms);

const VISITOR = {
  name: "Vera Visitor",
  email: "vera@partner.example",
  phone: "+49 30 1234 5678",
  company: "Partner & Co",
  title: "Buyer",
  message: "We met at the fair, stand 4.",
  consent: "yes",
};

/** The form sent from a card's page: a stamp of a form shown long enough ago unless `fields` give one. */
async function share(card: { id: string; username: string }, fields: Record<string, string>, ip?: string) {
  const request = formRequest(`/profile/${card.username}/share-back`, { stamp: shownAgo(card.id), ...fields }, { ip });
  return run(leadFormAction, request, { username: card.username });
}

async function leadsOfCard(profileId: string) {
  return db.select().from(leads).where(eq(leads.profileId, profileId));
}

/** Sends what the queue holds, collecting the messages. */
async function sendQueued() {
  const sent: MailMessage[] = [];
  await processDueJobs({ send: async (message) => void sent.push(message) });
  return sent;
}

describe("sharing back from a card", () => {
  it("reaches the card's owner once, with the consent the visitor read, and sends the visitor the contact card they asked for", async () => {
    const owner = await createMember({ firstName: "Olga", lastName: "Owner" });
    const card = owner.profile;
    const page = await run(leadFormLoader, getRequest(`/profile/${card.username}/share-back?src=qr`), {
      username: card.username,
    });
    expect(page.status).toBe(200);
    const shown = page.data as { consent: string; stamp: string; source: string };
    expect(shown.source).toBe("qr");
    expect(shown.consent).toContain("Olga Owner");
    expect(page.headers.get("cache-control")).toBe("no-store");

    const answer = await share(card, {
      ...VISITOR,
      name: '<script>alert("x")</script> Vera',
      src: "qr",
      wantsCard: "yes",
    });
    expect(answer.status).toBe(200);
    expect(answer.data).toEqual({ sent: true, wantsCard: true });

    const [lead] = await leadsOfCard(card.id);
    expect(lead).toMatchObject({
      email: "vera@partner.example",
      company: "Partner & Co",
      source: "qr",
      consentVersion: LEAD_CONSENT_VERSION,
      consentText: shown.consent,
      wantsCard: true,
    });

    const sent = await sendQueued();
    expect(sent.map((message) => message.to).sort()).toEqual([owner.profile.email, "vera@partner.example"].sort());
    const toOwner = present(
      sent.find((message) => message.to === owner.profile.email),
      "the owner's mail",
    );
    expect(toOwner.replyTo).toBe("vera@partner.example");
    expect(toOwner.subject).toBe('New contact from your card: <script>alert("x")</script> Vera');
    expect(toOwner.html).not.toContain("<script>");
    expect(toOwner.html).toContain("&lt;script&gt;");
    expect(toOwner.text).toContain("from your QR code");
    expect(toOwner.text).toContain("We met at the fair, stand 4.");
    const toVisitor = present(
      sent.find((message) => message.to === "vera@partner.example"),
      "the visitor's mail",
    );
    // Nothing the visitor typed goes back out: the form cannot send anyone a message.
    expect(`${toVisitor.subject}\n${toVisitor.text}\n${toVisitor.html}`).not.toContain("script");
    expect(toVisitor.attachments?.[0]?.content).toMatch(/^BEGIN:VCARD[\s\S]*FN:Olga Owner[\s\S]*END:VCARD\r\n$/);

    // Sent once: the next rounds find nothing.
    expect(await sendQueued()).toEqual([]);
  });

  it("says on the form what is missing or wrong, and stores nothing: refused consent, no way to reach, too long", async () => {
    const owner = await createMember();
    const card = owner.profile;
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ ...VISITOR, consent: "" }, "consent", /Tick the box/],
      [{ ...VISITOR, email: "", phone: "" }, "email", /email address or a phone number/],
      [{ ...VISITOR, email: "not-an-address" }, "email", /email address/],
      [{ ...VISITOR, name: "" }, "name", /Enter your name/],
      [{ ...VISITOR, name: "x".repeat(101) }, "name", /100/],
      [{ ...VISITOR, message: "x".repeat(1001) }, "message", /1,?000/],
      [{ ...VISITOR, email: "", wantsCard: "yes" }, "wantsCard", /email address to receive/],
      [{ ...VISITOR, company: "Line\r\nBcc: all@example.org" }, "company", /./],
    ];
    for (const [fields, field, message] of cases) {
      const answer = await share(card, fields);
      expect(answer.status, field).toBe(400);
      const errors = (answer.data as { fieldErrors: Record<string, string[]> }).fieldErrors;
      expect(errors[field]?.[0], field).toMatch(message);
      // What was typed stays on the form.
      expect((answer.data as { values: Record<string, string> }).values.name).toBe(fields.name);
    }
    expect(await leadsOfCard(card.id)).toEqual([]);
    expect(await db.select().from(mailJobs).where(eq(mailJobs.profileId, card.id))).toEqual([]);
  });

  it("tells a visitor whose browser reads German what is wrong in German, and keeps the consent they read in German", async () => {
    const owner = await createMember({ firstName: "Olga", lastName: "Owner" });
    const card = owner.profile;
    const inGerman = (fields: Record<string, string>) =>
      run(
        leadFormAction,
        formRequest(
          `/profile/${card.username}/share-back`,
          { stamp: shownAgo(card.id), ...fields },
          { acceptLanguage: "de-DE,de;q=0.9" },
        ),
        { username: card.username },
      );
    const refused = await inGerman({ ...VISITOR, consent: "", message: "x".repeat(1001) });
    expect(refused.status).toBe(400);
    const errors = (refused.data as { fieldErrors: Record<string, string[]> }).fieldErrors;
    expect(errors.consent).toEqual(["Setzen Sie das Häkchen, sonst können Ihre Kontaktdaten nicht gesendet werden"]);
    expect(errors.message).toEqual(["Die Notiz darf höchstens 1.000 Zeichen lang sein"]);
    expect(await leadsOfCard(card.id)).toEqual([]);

    const sent = await inGerman({ ...VISITOR, wantsCard: "yes" });
    expect(sent.status).toBe(200);
    const [lead] = await leadsOfCard(card.id);
    expect(lead?.consentText).toMatch(/^Ich bin einverstanden, dass Olga Owner von .+ höchstens 12 Monate auf/);
    // The contact card they asked for comes in German too.
    const toVisitor = present(
      (await sendQueued()).find((message) => message.to === VISITOR.email),
      "the visitor's mail",
    );
    expect(toVisitor.subject).toBe("Kontaktkarte von Olga Owner");
    expect(toVisitor.text).toMatch(/^Hallo,\n\nhier ist die Kontaktkarte von Olga Owner/);
    expect(toVisitor.html).toContain('<html lang="de" dir="ltr">');
  });

  it("shows a form sent sooner than a person types (a phone's autofill) again, filled in, to be sent once more", async () => {
    const owner = await createMember();
    const card = owner.profile;
    const stamp = formStamp(card.id, Date.now() - 500);
    const answer = await share(card, { ...VISITOR, stamp });
    expect(answer.status).toBe(400);
    expect(answer.data).toMatchObject({
      formError: "Check your details, then press Share my details again.",
      values: { name: VISITOR.name, email: VISITOR.email },
      stamp,
    });
    expect(await leadsOfCard(card.id)).toEqual([]);
    // Pressed again once a person could have typed it: it goes through.
    expect((await share(card, { ...VISITOR, stamp: shownAgo(card.id) })).data).toMatchObject({ sent: true });
    expect(await leadsOfCard(card.id)).toHaveLength(1);
  });

  it("answers bots as people and keeps nothing: a filled hidden field, a stamp it never gave", async () => {
    const owner = await createMember();
    const card = owner.profile;
    const other = await insertCard();
    for (const fields of [
      { ...VISITOR, website_url: "https://spam.example" },
      // A bot that fills the hidden field too, however fast.
      { ...VISITOR, website_url: "https://spam.example", stamp: formStamp(card.id, Date.now() - 500) },
      { ...VISITOR, stamp: `${Date.now() - 10_000}.${"A".repeat(43)}` },
      // A stamp this server gave, for another card.
      { ...VISITOR, stamp: shownAgo(other.id) },
      { ...VISITOR, stamp: "" },
    ]) {
      const answer = await share(card, fields);
      expect(answer.status).toBe(200);
      expect(answer.data).toEqual({ sent: true, wantsCard: false });
    }
    expect(await leadsOfCard(card.id)).toEqual([]);
    expect(await sendQueued()).toEqual([]);
  });

  it(`takes ${LEADS_PER_NETWORK} submissions from one network to one card in ten minutes, then answers 429 with a message`, async () => {
    const owner = await createMember({ firstName: "Rita" });
    const card = owner.profile;
    const ip = nextIp();
    for (let index = 0; index < LEADS_PER_NETWORK; index++) {
      expect((await share(card, { ...VISITOR, name: `Visitor ${index}` }, ip)).status).toBe(200);
    }
    const refused = await share(card, VISITOR, ip);
    expect(refused.status).toBe(429);
    expect((refused.data as { formError: string }).formError).toMatch(/sent to Rita several times/);
    // Another network is not held back.
    expect((await share(card, VISITOR, nextIp())).status).toBe(200);
    expect(await leadsOfCard(card.id)).toHaveLength(LEADS_PER_NETWORK + 1);
  });

  it("holds its limits when many forms arrive at once, and keeps a form sent twice once", async () => {
    const owner = await createMember();
    const card = owner.profile;
    const ip = nextIp();
    // Twelve forms, each shown at its own moment.
    const shownAt = Date.now() - MIN_FILL_MS - 2_000;
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        share(card, { ...VISITOR, name: `Racer ${index}`, stamp: formStamp(card.id, shownAt - index) }, ip),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(LEADS_PER_NETWORK);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(12 - LEADS_PER_NETWORK);
    expect(await leadsOfCard(card.id)).toHaveLength(LEADS_PER_NETWORK);

    // A double press (or a replay) of one form: answered as sent, kept once, mailed once.
    const other = await createMember();
    const stamp = shownAgo(other.profile.id);
    const twice = await Promise.all([0, 1].map(() => share(other.profile, { ...VISITOR, stamp })));
    expect(twice.map((answer) => answer.status)).toEqual([200, 200]);
    expect(await leadsOfCard(other.profile.id)).toHaveLength(1);
  });

  it("reaches the owner of a card not yet claimed even when an invitation or reminder is queued for it", async () => {
    const card = await insertCard({ email: "prepared@example.org", firstName: "Pre", lastName: "Pared" });
    expect((await share(card, VISITOR)).status).toBe(200);
    await issueInvitationMails({ kind: "invitation", scope: { ids: [card.id] } });
    const sent = await sendQueued();
    const subjects = sent.map((message) => message.subject);
    expect(subjects, subjects.join(" | ")).toHaveLength(2);
    expect(subjects.filter((subject) => subject.startsWith("New contact from your card"))).toHaveLength(1);
    expect(sent.every((message) => message.to === "prepared@example.org")).toBe(true);
  });

  it("a deactivated card takes no leads (410), and the leads it had are kept", async () => {
    const owner = await createMember();
    const card = owner.profile;
    expect((await share(card, VISITOR)).status).toBe(200);
    await db.update(profiles).set({ deactivatedAt: new Date() }).where(eq(profiles.id, card.id));
    const page = await run(leadFormLoader, getRequest(`/profile/${card.username}/share-back`), {
      username: card.username,
    });
    expect(page.status).toBe(410);
    expect((await share(card, VISITOR)).status).toBe(410);
    expect(await leadsOfCard(card.id)).toHaveLength(1);
    // Its queued mail is not sent: the card is switched off.
    expect(await sendQueued()).toEqual([]);
  });
});

describe("the owner's leads", () => {
  async function ownerWithLead(fields: Record<string, string> = VISITOR) {
    const owner = await createMember();
    expect((await share(owner.profile, fields)).status).toBe(200);
    const [lead] = await leadsOfCard(owner.profile.id);
    return { owner, lead: present(lead, "the lead") };
  }

  it("are read, searched, noted and deleted by the card's owner", async () => {
    const { owner, lead } = await ownerWithLead();
    expect(
      (
        await share(owner.profile, {
          ...VISITOR,
          name: "Other Person",
          email: "o@elsewhere.example",
          company: "Elsewhere",
        })
      ).status,
    ).toBe(200);

    const page = await run(leadsLoader, getRequest("/leads"), {}, owner.viewer);
    const listed = page.data as { rows: { name: string }[]; total: number };
    expect(listed.total).toBe(2);
    expect(listed.rows.map((row) => row.name)).toEqual(["Other Person", "Vera Visitor"]);
    const found = await run(leadsLoader, getRequest("/leads?q=partner"), {}, owner.viewer);
    expect((found.data as { rows: { name: string }[] }).rows.map((row) => row.name)).toEqual(["Vera Visitor"]);
    // A search's wildcard is a character like any other.
    const wild = await run(leadsLoader, getRequest("/leads?q=%25"), {}, owner.viewer);
    expect((wild.data as { total: number }).total).toBe(0);

    const noted = await run(
      leadsAction,
      formRequest("/leads", { intent: "note", leadId: lead.id, note: "Call back in May" }),
      {},
      owner.viewer,
    );
    expect(noted.status).toBe(302);
    const [withNote] = await db.select().from(leads).where(eq(leads.id, lead.id));
    expect(withNote?.ownerNote).toBe("Call back in May");

    const deleted = await run(
      leadsAction,
      formRequest("/leads", { intent: "delete", leadId: lead.id }),
      {},
      owner.viewer,
    );
    expect(deleted.status).toBe(302);
    expect(await db.select().from(leads).where(eq(leads.id, lead.id))).toEqual([]);
  });

  it("are kept from another member and from administrators, unless the company lets administrators read them", async () => {
    const { owner, lead } = await ownerWithLead();
    const other = await createMember();
    const admin = await createMember({ email: "admin@example.com" });

    // Another member's page is their own, and names the owner's card in vain.
    const theirs = await run(leadsLoader, getRequest("/leads"), {}, other.viewer);
    expect((theirs.data as { total: number }).total).toBe(0);
    for (const url of [`/leads?card=${owner.profile.username}`, `/leads/export.csv?card=${owner.profile.username}`]) {
      const loader = url.includes("export") ? exportLoader : leadsLoader;
      expect((await run(loader, getRequest(url), {}, other.viewer)).status, url).toBe(404);
      expect((await run(loader, getRequest(url), {}, admin.viewer)).status, url).toBe(404);
    }
    for (const viewer of [other.viewer, admin.viewer]) {
      for (const form of <Record<string, string>[]>[
        { intent: "delete", leadId: lead.id },
        { intent: "note", leadId: lead.id, note: "mine now" },
      ]) {
        expect((await run(leadsAction, formRequest("/leads", form), {}, viewer)).status).toBe(404);
      }
    }
    const [still] = await db.select().from(leads).where(eq(leads.id, lead.id));
    expect(still?.ownerNote).toBeNull();

    // Allowed in the settings: an administrator reads them, and still cannot change them.
    await db
      .insert(siteSettings)
      .values({ id: 1, adminsSeeLeads: true })
      .onConflictDoUpdate({
        target: siteSettings.id,
        set: { adminsSeeLeads: true },
      });
    const read = await run(leadsLoader, getRequest(`/leads?card=${owner.profile.username}`), {}, admin.viewer);
    expect(read.status).toBe(200);
    expect((read.data as { rows: { name: string }[]; card: { own: boolean } }).rows.map((row) => row.name)).toEqual([
      "Vera Visitor",
    ]);
    expect((read.data as { card: { own: boolean } }).card.own).toBe(false);
    // Each reading is on the record, under the administrator.
    const [reading] = await db.select().from(auditLog).where(eq(auditLog.action, "read"));
    expect(reading).toMatchObject({ actorEmail: "admin@example.com", targetKind: "leads", targetId: owner.profile.id });
    expect((await run(leadsLoader, getRequest(`/leads?card=${owner.profile.username}`), {}, other.viewer)).status).toBe(
      404,
    );
  });

  it("export to a CSV whose formula cells are neutralised and which Python's csv reads back, and to one contact file", async () => {
    const { owner } = await ownerWithLead({
      ...VISITOR,
      name: '=HYPERLINK("http://evil.example","x")',
      company: "+SUM(1;2)",
      title: "@risk",
      message: 'Line one, with "quotes"\n=2+2 on line two',
    });
    const csv = await run(exportLoader, getRequest("/leads/export.csv"), {}, owner.viewer);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-disposition")).toMatch(/attachment; filename="leads-.*\.csv"/);
    const response = await exportLoader({
      request: getRequest("/leads/export.csv"),
      params: {},
      context: contextOf(owner.viewer),
    } as never);
    const text = await (response as Response).text();
    const rows = JSON.parse(
      execFileSync(
        "python3",
        [
          "-c",
          "import csv, io, json, sys; print(json.dumps(list(csv.reader(io.StringIO(sys.stdin.read().lstrip('\\ufeff'))))))",
        ],
        { input: text },
      ).toString(),
    ) as string[][];
    expect(rows[0]).toEqual([
      "Shared at (UTC)",
      "Name",
      "Email",
      "Phone",
      "Company",
      "Job title",
      "Their note",
      "Your note",
      "From",
    ]);
    const [row] = rows.slice(1);
    expect(row?.[1]).toBe('\'=HYPERLINK("http://evil.example","x")');
    expect(row?.[4]).toBe("'+SUM(1;2)");
    expect(row?.[5]).toBe("'@risk");
    expect(row?.[6]).toBe('Line one, with "quotes"\n\'=2+2 on line two');
    expect(row?.[8]).toBe("Card page");

    const vcf = (await exportLoader({
      request: getRequest("/leads/export.vcf"),
      params: {},
      context: contextOf(owner.viewer),
    } as never)) as Response;
    expect(vcf.headers.get("content-type")).toBe("text/vcard; charset=utf-8");
    const cards = (await vcf.text()).match(/BEGIN:VCARD/g);
    expect(cards).toHaveLength(1);
  });
});

describe("privacy", () => {
  it("deletes leads when the period their visitor agreed to ends (or sooner, never later, if the setting changes), with their waiting mails", async () => {
    const owner = await createMember();
    const now = new Date("2027-06-15T12:00:00Z");
    const at = (months: number) => {
      const date = new Date(now);
      date.setUTCMonth(date.getUTCMonth() - months);
      return date;
    };
    const values = (name: string, createdAt: Date) => ({
      profileId: owner.profile.id,
      name,
      email: `${name.toLowerCase()}@example.org`,
      source: "card" as const,
      consentVersion: 1,
      consentText: "…",
      createdAt,
      // Shared under the default: kept for 12 months at most.
      expiresAt: new Date(createdAt.getTime() + (now.getTime() - at(12).getTime())),
    });
    const [old] = await db
      .insert(leads)
      .values([values("Old", at(13)), values("Recent", at(11))])
      .returning();
    await db
      .insert(mailJobs)
      .values({ kind: "lead", profileId: owner.profile.id, leadId: present(old, "old").id, email: "x@example.org" });

    const keepFor = async (months: number) =>
      db
        .insert(siteSettings)
        .values({ id: 1, leadRetentionMonths: months })
        .onConflictDoUpdate({ target: siteSettings.id, set: { leadRetentionMonths: months } });
    // The company now keeps leads for ten years: a lead whose visitor agreed to 12 months still goes at 12.
    await keepFor(120);
    expect(await deleteExpiredLeads(now)).toBe(1);
    expect((await leadsOfCard(owner.profile.id)).map((lead) => lead.name)).toEqual(["Recent"]);
    expect(await db.select().from(mailJobs).where(eq(mailJobs.profileId, owner.profile.id))).toEqual([]);

    // A company that now keeps them for 6 months: sooner is always allowed.
    await keepFor(6);
    expect(await deleteExpiredLeads(now)).toBe(1);
    expect(await leadsOfCard(owner.profile.id)).toEqual([]);
  });

  it("erases one address's leads on every card, and the audit log says it was done, never the address", async () => {
    const [first, second] = [await createMember(), await createMember()];
    const admin = await createMember({ email: "admin@example.com" });
    expect((await share(first.profile, { ...VISITOR, email: "Erase.Me@Example.org" })).status).toBe(200);
    expect((await share(second.profile, { ...VISITOR, email: "erase.me@example.org" })).status).toBe(200);
    expect((await share(second.profile, { ...VISITOR, email: "keep@example.org" })).status).toBe(200);

    expect(await eraseLeadsOf(admin.viewer, "ERASE.ME@example.org")).toBe(2);
    const left = await db
      .select({ email: leads.email })
      .from(leads)
      .where(sql`${leads.profileId} in (${first.profile.id}, ${second.profile.id})`);
    expect(left).toEqual([{ email: "keep@example.org" }]);
    expect(await db.select().from(mailJobs).where(eq(mailJobs.email, "erase.me@example.org"))).toEqual([]);
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "erase"), eq(auditLog.targetKind, "leads")));
    expect(entry?.targetLabel).toBe("One visitor's details (2 leads)");
    expect(JSON.stringify(entry)).not.toMatch(/erase\.me/i);
  });
});

describe("the owner's figures", () => {
  it("counts views per day by source, contact files saved, wallet adds and leads over 30 days", async () => {
    const owner = await createMember();
    const card = owner.profile;
    const now = new Date();
    const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
    await db.insert(profileViews).values([
      { profileId: card.id, source: "qr", createdAt: daysAgo(0) },
      { profileId: card.id, source: "qr", createdAt: daysAgo(0) },
      { profileId: card.id, source: "link", createdAt: daysAgo(3) },
      { profileId: card.id, source: "directory", createdAt: daysAgo(29) },
      // Older than the 30 days.
      { profileId: card.id, source: "link", createdAt: daysAgo(45) },
    ]);
    const visit = {
      ip: "10.1.2.3",
      userAgent:
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
      prefetch: false,
    };
    for (let index = 0; index < 3; index++) {
      countSave({ kind: "contact", profileId: card.id, visit, ownerUserId: owner.viewer.user.id, viewerUserId: null });
    }
    // The owner's own download and a crawler's are not saves.
    countSave({
      kind: "contact",
      profileId: card.id,
      visit,
      ownerUserId: owner.viewer.user.id,
      viewerUserId: owner.viewer.user.id,
    });
    countSave({
      kind: "contact",
      profileId: card.id,
      visit: { ...visit, userAgent: "Googlebot/2.1" },
      ownerUserId: null,
      viewerUserId: null,
    });
    countSave({ kind: "wallet", profileId: card.id, visit, ownerUserId: null, viewerUserId: null });
    await flushSaves();
    expect((await share(card, VISITOR)).status).toBe(200);

    const activity = await cardActivity(card.id, now);
    expect(activity.days).toHaveLength(30);
    expect(activity.totals).toEqual({ link: 1, qr: 2, directory: 1, views: 4, contact: 3, wallet: 1, leads: 1 });
    expect(activity.days.at(-1)).toMatchObject({ qr: 2, link: 0 });
    expect(activity.days[0]).toMatchObject({ directory: 1 });
  });
});

/** A route's context with this viewer, for reading a file route's body (`run` keeps only its status). */
function contextOf(viewer: unknown) {
  const context = new RouterContextProvider();
  context.set(viewerContext, viewer as never);
  return context;
}
