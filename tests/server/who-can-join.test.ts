import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getAuth } from "~/.server/http/auth";
import { readToast } from "~/.server/http/toast";
import { db } from "~/.server/platform/db/client";
import { auditLog, brandDomains, brands, profiles, sessions, siteSettings, users } from "~/.server/platform/db/schema";
import { mailSettled } from "~/.server/platform/mail";
import { action as settingsAction, loader as settingsLoader } from "~/routes/admin/settings/joining";
import { action as authAction } from "~/routes/auth/auth";
import {
  BASE,
  cookieFrom,
  createMember,
  formRequest,
  getRequest,
  insertCard,
  latestMail,
  openAuthLink,
  present,
  run,
} from "./helpers";

/**
 * Who can join (docs/decisions/024-who-can-join.md): the test environment's
 * ADMIN_EMAILS is admin@example.com, so a new installation lets people at
 * example.com join and nobody else but the people an administrator prepared a card for.
 */
const PASSWORD = "correct horse battery";
let counter = 0;
const address = (domain: string) => `person.${process.pid}.${++counter}@${domain}`;

async function signUp(email: string) {
  const result = await run(
    authAction,
    formRequest("/auth", { intent: "signup", firstName: "Mallory", lastName: "Outsider", email, password: PASSWORD }),
  );
  await mailSettled();
  return result;
}

async function accountOf(email: string) {
  const [user] = await db.select().from(users).where(sql`lower(${users.email}) = ${email}`);
  return user ?? null;
}

async function admin() {
  return createMember({ email: "admin@example.com" });
}

async function saveRule(
  administrator: Awaited<ReturnType<typeof admin>>,
  fields: { joinRule?: string; joinDomains?: string },
) {
  return run(
    settingsAction,
    formRequest("/admin/settings/joining", fields, { cookie: administrator.cookie }),
    {},
    administrator.viewer,
  );
}

function emailError(result: Awaited<ReturnType<typeof signUp>>) {
  return (result.data as { fieldErrors?: Record<string, string[]> } | null)?.fieldErrors?.email?.[0];
}

describe("who can join", () => {
  it("a new installation lets in people at the administrators' domain and its subdomains, and nobody else", async () => {
    for (const email of [address("example.com"), address("eu.example.com")]) {
      const result = await signUp(email);
      expect(result.status).toBe(200);
      expect(latestMail(email)?.link).toBeTruthy();
    }

    const outsider = address("gmail.example");
    const refused = await signUp(outsider);
    expect(refused.status).toBe(400);
    expect(emailError(refused)).toBe(
      "Only people with an address at example.com can join. Sign up with your work address, or ask an administrator to invite you.",
    );
    // No account, no mail: nothing an outsider could confirm later.
    expect(await accountOf(outsider)).toBeNull();
    expect(latestMail(outsider)).toBeNull();
    // A look-alike domain is not the company's.
    expect((await signUp(address("notexample.com"))).status).toBe(400);
    expect((await signUp(address("example.com.evil.test"))).status).toBe(400);
  });

  it("refuses the same outsider through better-auth's own sign-up endpoint", async () => {
    const email = address("gmail.example");
    const response = await getAuth().handler(
      new Request(`${BASE}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: BASE },
        body: JSON.stringify({ email, password: PASSWORD, firstName: "Mal", lastName: "Lory", callbackURL: "/" }),
      }),
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: "NOT_ALLOWED_TO_JOIN" });
    expect(await accountOf(email)).toBeNull();
  });

  it("lets in anyone an administrator prepared a card for, whatever the rule, but not for a deactivated card", async () => {
    const administrator = await admin();
    expect((await saveRule(administrator, { joinRule: "invited", joinDomains: "example.com" })).status).toBe(302);

    const partner = address("partner.test");
    await insertCard({ email: partner, username: `partner${counter}` });
    expect((await signUp(partner)).status).toBe(200);

    const colleague = address("example.com");
    const refused = await signUp(colleague);
    expect(refused.status).toBe(400);
    expect(emailError(refused)).toBe("Joining is by invitation only. Ask an administrator to invite you.");

    const switchedOff = address("partner.test");
    await insertCard({ email: switchedOff, username: `off${counter}`, deactivatedAt: new Date() });
    expect((await signUp(switchedOff)).status).toBe(400);

    // The administrators are the way in that is always open.
    const adminSignUp = await signUp("admin@example.com");
    expect(adminSignUp.status).toBe(200);
  });

  it("lets anyone join when the administrator chooses so", async () => {
    const administrator = await admin();
    expect((await saveRule(administrator, { joinRule: "anyone", joinDomains: "" })).status).toBe(302);
    expect((await signUp(address("gmail.example"))).status).toBe(200);
  });

  it("lets in people at a brand's domains, into that brand, and people elsewhere in the company into the default brand", async () => {
    const [aurora, main] = await db
      .insert(brands)
      .values([{ name: "Aurora Foods" }, { name: "Group", isDefault: true }])
      .returning();
    await db.insert(brandDomains).values({ domain: "aurora.example", brandId: present(aurora, "the brand").id });
    for (const [email, brand] of [
      [address("aurora.example"), aurora],
      [address("sales.aurora.example"), aurora],
      [address("example.com"), main],
    ] as const) {
      const signedUp = await signUp(email);
      expect(signedUp.status, email).toBe(200);
      const link = present(latestMail(email)?.link, "a confirmation link");
      expect((await openAuthLink(link, cookieFrom(signedUp.headers))).status).toBe(302);
      const [card] = await db.select().from(profiles).where(eq(profiles.email, email));
      expect(card?.companyBrandId, email).toBe(brand?.id);
    }
    // A brand's domain is the company's; a look-alike is not.
    expect((await signUp(address("notaurora.example"))).status).toBe(400);
  });

  it("a confirmation link opened after the rule became stricter makes no account", async () => {
    const email = address("example.com");
    const signedUp = await signUp(email);
    expect(signedUp.status).toBe(200);
    const link = present(latestMail(email)?.link, "a confirmation link");

    const administrator = await admin();
    expect((await saveRule(administrator, { joinRule: "domains", joinDomains: "brand.example" })).status).toBe(302);

    const opened = await openAuthLink(link, cookieFrom(signedUp.headers));
    expect(opened).toMatchObject({ status: 302, location: "/auth/verified?error=NOT_ALLOWED_TO_JOIN" });
    expect(opened.cookie).not.toMatch(/session_token/);
    expect((await accountOf(email))?.emailVerified).toBe(false);
    expect(await db.select().from(profiles).where(eq(profiles.email, email))).toEqual([]);
  });

  it("checks the domains an administrator types, and keeps them in one form", async () => {
    const administrator = await admin();
    const bad = await saveRule(administrator, {
      joinRule: "domains",
      joinDomains: "example.com\nnot a domain, -bad-.com",
    });
    expect(bad.status).toBe(400);
    expect((bad.data as { fieldErrors: Record<string, string[]> }).fieldErrors.joinDomains?.[0]).toBe(
      '"not", "a", "domain", "-bad-.com" are not domain names. Enter domains such as example.com, one a line.',
    );
    const empty = await saveRule(administrator, { joinRule: "domains", joinDomains: "  " });
    expect((empty.data as { fieldErrors: Record<string, string[]> }).fieldErrors.joinDomains?.[0]).toBe(
      "List at least one domain, or choose that only invited people can join",
    );
    const wrongRule = await saveRule(administrator, { joinRule: "everyone", joinDomains: "example.com" });
    expect((wrongRule.data as { fieldErrors: Record<string, string[]> }).fieldErrors.joinRule?.[0]).toBe(
      "Choose who can join",
    );
    expect(await db.select().from(siteSettings)).toEqual([]);

    const saved = await saveRule(administrator, {
      joinRule: "domains",
      joinDomains: "@Example.com, *.brand.example\nBücher.example.\nexample.com",
    });
    expect(saved.status).toBe(302);
    const [row] = await db.select().from(siteSettings);
    expect(row?.joinDomains).toBe("example.com\nbrand.example\nxn--bcher-kva.example");
    expect((await signUp(address("shop.xn--bcher-kva.example"))).status).toBe(200);
    expect((await signUp(address("brand.example"))).status).toBe(200);
    // The change is in the audit log, like every other setting.
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.action, "settings"));
    expect(entry?.changes).toMatchObject({ joinRule: [null, "domains"] });
  });

  it("lists the people a stricter rule leaves outside, and deactivates them in one step", async () => {
    const inside = await createMember({ email: address("example.com") });
    const outsiders = [
      await createMember({ email: address("gmail.example") }),
      await createMember({ email: address("mail.example") }),
    ];
    // A card the administrator prepared for a partner stays, whatever the rule.
    const partnerEmail = address("partner.test");
    await insertCard({ email: partnerEmail, username: `partner${counter}` });
    const partner = await createMember({ email: partnerEmail });
    const administrator = await admin();

    const page = await run(
      settingsLoader,
      getRequest("/admin/settings/joining", administrator.cookie),
      {},
      administrator.viewer,
    );
    const outside = (page.data as { outside: { total: number; ids: string[]; shown: { email: string }[] } }).outside;
    expect(outside.total).toBe(2);
    expect(outside.shown.map((account) => account.email).sort()).toEqual(
      outsiders.map((member) => member.email).sort(),
    );

    // Someone who joins after the page was shown is not swept along.
    const late = await createMember({ email: address("late.example") });
    const form = new URLSearchParams({ intent: "deactivate-outside", profileIds: outside.ids.join(",") });
    const result = await run(
      settingsAction,
      new Request(`${BASE}/admin/settings/joining`, {
        method: "POST",
        headers: { cookie: administrator.cookie, origin: BASE },
        body: form,
      }),
      {},
      administrator.viewer,
    );
    expect(result).toMatchObject({ status: 302, location: "/admin/settings/joining" });
    expect((await readToast(cookieFrom(result.headers)))?.text).toBe(
      "2 accounts were deactivated: they are signed out and their cards are hidden.",
    );

    for (const member of outsiders) {
      const [card] = await db.select().from(profiles).where(eq(profiles.userId, member.id));
      expect(card?.deactivatedAt).not.toBeNull();
      expect(await db.select().from(sessions).where(eq(sessions.userId, member.id))).toEqual([]);
    }
    for (const member of [inside, partner, late, administrator]) {
      const [card] = await db.select().from(profiles).where(eq(profiles.userId, member.id));
      expect(card?.deactivatedAt).toBeNull();
    }
    const entries = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "deactivate"), eq(auditLog.actorEmail, "admin@example.com")));
    expect(entries).toHaveLength(2);
  });

  it("a member cannot deactivate the people outside the rule", async () => {
    const outsider = await createMember({ email: address("gmail.example") });
    const member = await createMember({ email: address("example.com") });
    const [card] = await db.select().from(profiles).where(eq(profiles.userId, outsider.id));
    const result = await run(
      settingsAction,
      formRequest(
        "/admin/settings/joining",
        { intent: "deactivate-outside", profileIds: present(card, "card").id },
        { cookie: member.cookie },
      ),
      {},
      member.viewer,
    );
    expect(result.status).toBe(403);
    const [after] = await db.select().from(profiles).where(eq(profiles.userId, outsider.id));
    expect(after?.deactivatedAt).toBeNull();
  });
});
