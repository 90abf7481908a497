import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callAuth, getAuth } from "~/.server/http/auth";
import { db, rowsOf } from "~/.server/platform/db/client";
import {
  accounts,
  auditLog,
  brandDomains,
  brands,
  identityProviders,
  profiles,
  siteSettings,
  ssoIdentities,
  users,
  verifications,
} from "~/.server/platform/db/schema";
import { env } from "~/.server/platform/env";
import { setCardState } from "~/.server/profiles/deactivation";
import { listProviders, saveProvider } from "~/.server/sso/providers";
import { ProviderFormSchema } from "~/.server/sso/schemas";
import { action as ssoAction, loader as ssoLoader } from "~/routes/admin/single-sign-on";
import { action as authAction } from "~/routes/auth/auth";
import { loader as confirmAdminLoader } from "~/routes/auth/confirm-admin";
import { newBrowser, newestLink, openIn, signUpIn } from "../security/accounts-support";
import { MEMBER_PASSWORD } from "../support/members";
import { startOidcProvider, type TestProvider } from "../support/oidc-provider";
import { connectProvider, SsoBrowser } from "../support/sso-flow";
import { createMember, formRequest, getRequest, insertCard, present, run } from "./helpers";

/**
 * Signing in with the company's OpenID Connect provider, against a real one
 * (oidc-provider) on 127.0.0.1: the first sign-in makes or claims the card,
 * identities are keyed by issuer and subject, a provider signs in only its
 * own domains, and a domain may require it instead of a password.
 */

let idp: TestProvider;

beforeAll(async () => {
  idp = await startOidcProvider();
});

afterAll(async () => {
  await idp.close();
});

type Admin = Awaited<ReturnType<typeof createMember>>;

function connect(admin: Admin, options: Parameters<typeof connectProvider>[2] = {}) {
  return connectProvider(idp, admin.viewer, options);
}

function adminOf() {
  return createMember({ email: "admin@example.com", firstName: "Ada", lastName: "Admin" });
}

describe("single sign-on with an OpenID Connect provider", () => {
  it("makes an account and a card from the provider's claims at the first sign-in, and signs the person in where they were going", async () => {
    const provider = await connect(await adminOf());
    idp.signInAs("sub-grace", {
      email: "Grace@Acme.test",
      email_verified: true,
      given_name: "Grace",
      family_name: "Hopper",
      title: "Rear Admiral",
      phone_number: "+1 202 555 0100",
    });
    const browser = new SsoBrowser();
    const answer = await browser.signIn({ providerId: provider.id, callbackURL: "/directory?q=grace" });
    expect(answer).toMatchObject({ status: 302, location: "/directory?q=grace" });
    const session = present(await browser.session(), "a session");
    expect(session.user.email).toBe("grace@acme.test");
    const [card] = await db.select().from(profiles).where(eq(profiles.userId, session.user.id));
    expect(card).toMatchObject({
      firstName: "Grace",
      lastName: "Hopper",
      title: "Rear Admiral",
      phone: "+1 202 555 0100",
      email: "grace@acme.test",
    });
    const [identity] = await db.select().from(ssoIdentities).where(eq(ssoIdentities.userId, session.user.id));
    expect(identity).toMatchObject({ issuer: idp.issuer, subject: "sub-grace" });
  });

  it("puts a person who signs in for the first time into the brand of their address's domain", async () => {
    const [brand] = await db.insert(brands).values({ name: "Acme Rockets" }).returning();
    await db.insert(brandDomains).values({ domain: "acme.test", brandId: present(brand, "the brand").id });
    const provider = await connect(await adminOf());
    idp.signInAs("sub-ada", { email: "ada@acme.test", email_verified: true, given_name: "Ada", family_name: "Byron" });
    const browser = new SsoBrowser();
    expect(await browser.signIn({ providerId: provider.id })).toMatchObject({ status: 302 });
    const session = present(await browser.session(), "a session");
    const [card] = await db.select().from(profiles).where(eq(profiles.userId, session.user.id));
    expect(card?.companyBrandId).toBe(brand?.id);
  });

  it("signs in at the first try with a provider that reads a secret full of punctuation in the header without decoding it", async () => {
    const provider = await connect(await adminOf(), {
      client: { basicUndecoded: true, secret: "s3cr3t-with+punctuation/&=%~!" },
    });
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args.join(" "));
    try {
      for (const who of ["ada", "alan"]) {
        idp.signInAs(`sub-${who}-post`, { email: `${who}.post@acme.test`, email_verified: true, given_name: who });
        const browser = new SsoBrowser();
        expect(await browser.signIn({ providerId: provider.id })).toMatchObject({ status: 302, location: "/" });
        expect(present(await browser.session(), "a session").user.email).toBe(`${who}.post@acme.test`);
      }
    } finally {
      console.warn = warn;
    }
    // Said once, with the provider's own words; the second person's sign-in goes straight through.
    const said = warnings.filter((line) => line.includes("refused the client secret"));
    expect(said).toEqual([expect.stringMatching(/Acme Login refused .*invalid_client/)]);
    expect(said.join()).not.toContain("s3cr3t");
  });

  it("asks for the address and the name even when the provider's discovery lists only openid", async () => {
    const provider = await connect(await adminOf());
    idp.rewriteDiscovery((document) => ({ ...document, scopes_supported: ["openid"] }));
    try {
      idp.signInAs("sub-listed", {
        email: "listed@acme.test",
        email_verified: true,
        given_name: "Lis",
        family_name: "Ted",
      });
      const browser = new SsoBrowser();
      expect(await browser.signIn({ providerId: provider.id })).toMatchObject({ status: 302 });
      const session = present(await browser.session(), "a session");
      const [card] = await db.select().from(profiles).where(eq(profiles.userId, session.user.id));
      expect(card).toMatchObject({ email: "listed@acme.test", firstName: "Lis", lastName: "Ted" });
    } finally {
      idp.rewriteDiscovery(null);
    }
  });

  it("claims the card an administrator prepared for the address, filling only what it left empty", async () => {
    const provider = await connect(await adminOf());
    const prepared = await insertCard({ email: "linus@acme.test", firstName: "Linus", lastName: "T", title: "Kernel" });
    idp.signInAs("sub-linus", {
      email: "linus@acme.test",
      given_name: "Linus",
      family_name: "Torvalds",
      title: "Something else",
      phone_number: "+358 40 123 4567",
    });
    const browser = new SsoBrowser();
    expect((await browser.signIn({ providerId: provider.id })).location).toBe("/");
    const [card] = await db.select().from(profiles).where(eq(profiles.id, prepared.id));
    const session = present(await browser.session(), "a session");
    expect(card).toMatchObject({ userId: session.user.id, title: "Kernel", phone: "+358 40 123 4567" });
  });

  it("finds the account by issuer and subject: a changed email claim neither moves it nor makes another", async () => {
    const provider = await connect(await adminOf(), { domains: "acme.test\nacme-group.test" });
    idp.signInAs("sub-ken", { email: "ken@acme.test", given_name: "Ken", family_name: "Thompson" });
    const first = new SsoBrowser();
    await first.signIn({ providerId: provider.id });
    const before = present(await first.session(), "a session");

    idp.signInAs("sub-ken", { email: "ken@acme-group.test", given_name: "Ken", family_name: "Thompson" });
    const second = new SsoBrowser();
    await second.signIn({ providerId: provider.id });
    const after = present(await second.session(), "a session");
    expect(after.user.id).toBe(before.user.id);
    expect(after.user.email).toBe("ken@acme.test");
    expect(await db.select().from(users).where(eq(users.email, "ken@acme-group.test"))).toEqual([]);
  });

  it("refreshes the card's name and job title at later sign-ins only once the administrator chose so", async () => {
    const admin = await adminOf();
    const provider = await connect(admin);
    const signInWithTitle = async (title: string) => {
      idp.signInAs("sub-barbara", { email: "barbara@acme.test", given_name: "Barbara", family_name: "Liskov", title });
      await new SsoBrowser().signIn({ providerId: provider.id });
      const [card] = await db.select().from(profiles).where(eq(profiles.email, "barbara@acme.test"));
      return present(card, "the card").title;
    };
    expect(await signInWithTitle("Professor")).toBe("Professor");
    expect(await signInWithTitle("Institute Professor")).toBe("Professor");

    const form = ProviderFormSchema.parse({
      name: "Acme Login",
      issuer: idp.issuer,
      clientId: present((await listProviders())[0], "the provider").clientId,
      domains: "acme.test",
      refreshCard: "on",
    });
    // An empty secret keeps the stored one.
    await saveProvider({ actor: admin.viewer, id: provider.id, form });
    expect(await signInWithTitle("Institute Professor")).toBe("Institute Professor");
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.action, "update"));
    expect(present(entry, "the entry").changes).toEqual({ refreshCard: ["no", "yes"] });
  });

  it("gives a deactivated person no session, and says why on the sign-in page", async () => {
    const admin = await adminOf();
    const provider = await connect(admin);
    idp.signInAs("sub-left", { email: "left@acme.test", given_name: "Left", family_name: "Company" });
    await new SsoBrowser().signIn({ providerId: provider.id });
    const [card] = await db.select().from(profiles).where(eq(profiles.email, "left@acme.test"));
    await setCardState({ actor: admin.viewer, profileId: present(card, "the card").id, state: "deactivated" });

    const browser = new SsoBrowser();
    expect(await browser.signIn({ providerId: provider.id })).toMatchObject({
      status: 302,
      location: "/auth?sso=deactivated",
    });
    expect(await browser.session()).toBeNull();
  });

  it("refuses an address of a domain the provider does not sign in, and leaves that account alone", async () => {
    const provider = await connect(await adminOf());
    const outsider = await createMember({ email: "victim@other.test" });
    idp.signInAs("sub-mallory", { email: "victim@other.test", email_verified: true, given_name: "Mallory" });
    const browser = new SsoBrowser();
    expect(await browser.signIn({ providerId: provider.id })).toMatchObject({ location: "/auth?sso=domain" });
    expect(await browser.session()).toBeNull();
    expect(await db.select().from(ssoIdentities).where(eq(ssoIdentities.userId, outsider.id))).toEqual([]);
  });

  it("links an account that exists already only on a verified address, or when the administrator says the provider verifies its domains", async () => {
    const admin = await adminOf();
    const member = await createMember({ email: "kay@acme.test", firstName: "Kay", lastName: "Existing" });
    const provider = await connect(admin);
    // The provider says nothing of whether the address is verified (as Microsoft Entra ID does).
    idp.signInAs("sub-kay", { email: "kay@acme.test", given_name: "Kay" });
    const refused = new SsoBrowser();
    expect(await refused.signIn({ providerId: provider.id })).toMatchObject({ location: "/auth?sso=link-unverified" });
    expect(await refused.session()).toBeNull();
    expect(await db.select().from(ssoIdentities)).toEqual([]);

    // The administrator says the provider verifies the addresses of its domains: the same sign-in links the account.
    const form = ProviderFormSchema.parse({
      name: "Acme Login",
      issuer: idp.issuer,
      clientId: provider.clientId,
      clientSecret: "",
      domains: "acme.test",
      requireSso: "",
      refreshCard: "",
      verifiesAddresses: "on",
    });
    await saveProvider({ actor: admin.viewer, id: provider.id, form });
    const linked = new SsoBrowser();
    expect(await linked.signIn({ providerId: provider.id })).toMatchObject({ status: 302, location: "/" });
    expect(present(await linked.session(), "a session").user.id).toBe(member.id);
  });

  it("refuses a second subject of the same provider asserting an address already linked to another", async () => {
    const provider = await connect(await adminOf());
    idp.signInAs("sub-first", { email: "shared@acme.test", given_name: "First" });
    await new SsoBrowser().signIn({ providerId: provider.id });
    idp.signInAs("sub-second", { email: "shared@acme.test", given_name: "Second" });
    const browser = new SsoBrowser();
    expect(await browser.signIn({ providerId: provider.id })).toMatchObject({ location: "/auth?sso=taken" });
    expect(await browser.session()).toBeNull();
  });

  it("refuses an address the provider says is not verified", async () => {
    const provider = await connect(await adminOf());
    idp.signInAs("sub-unverified", { email: "new@acme.test", email_verified: false });
    const browser = new SsoBrowser();
    expect(await browser.signIn({ providerId: provider.id })).toMatchObject({ location: "/auth?sso=unverified-email" });
    expect(await db.select().from(users).where(eq(users.email, "new@acme.test"))).toEqual([]);
  });

  it("never signs in an address of ADMIN_EMAILS through a provider: the break-glass account keeps its password alone", async () => {
    const provider = await connect(await adminOf(), { domains: "acme.test\nexample.com" });
    idp.signInAs("sub-not-the-admin", { email: "admin@example.com", email_verified: true, given_name: "Not" });
    const browser = new SsoBrowser();
    expect(await browser.signIn({ providerId: provider.id })).toMatchObject({ location: "/auth?sso=break-glass" });
    expect(await browser.session()).toBeNull();
    expect(await db.select().from(ssoIdentities)).toEqual([]);
  });

  it("links a provider into an administrator's account only once the administrator confirms with their password", async () => {
    const provider = await connect(await adminOf(), { verifiesAddresses: true });
    const lead = await createMember({ email: "lead@acme.test", firstName: "Lee", lastName: "Lead" });
    await db.update(users).set({ role: "admin" }).where(eq(users.id, lead.id));
    idp.signInAs("sub-lead", { email: "lead@acme.test", email_verified: true, given_name: "Lee" });

    const browser = new SsoBrowser();
    const back = await browser.signIn({ providerId: provider.id });
    const state = present(
      /^\/auth\/confirm-admin\?state=([^&]+)$/.exec(back.location ?? "")?.[1],
      "the confirmation page",
    );
    expect(await browser.session()).toBeNull();
    expect(await db.select().from(ssoIdentities)).toEqual([]);
    // The page names the provider and the account; the password is asked for there.
    const page = await run(confirmAdminLoader, getRequest(`/auth/confirm-admin?state=${state}`));
    expect(page.data).toMatchObject({ pending: { providerName: "Acme Login", email: "lead@acme.test" } });

    const confirm = (password: string, from = browser) =>
      from.app(`${env.PUBLIC_URL}/api/auth/sso/confirm-admin`, {
        method: "POST",
        body: { state: decodeURIComponent(state), password },
      });
    // Another browser with the page's address has nothing to confirm: the sign-in is this browser's.
    expect((await confirm(MEMBER_PASSWORD, new SsoBrowser())).status).toBe(400);
    const wrong = await confirm("not the password");
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ code: "WRONG_PASSWORD" });
    expect(await db.select().from(ssoIdentities)).toEqual([]);
    expect(await browser.session()).toBeNull();

    const right = await confirm(MEMBER_PASSWORD);
    expect(right.status).toBe(200);
    expect(present(await browser.session(), "a session").user.id).toBe(lead.id);
    expect(await db.select({ userId: ssoIdentities.userId }).from(ssoIdentities)).toEqual([{ userId: lead.id }]);
    // Used once: the same confirmation again finds nothing.
    expect((await confirm(MEMBER_PASSWORD)).status).toBe(400);

    // From then on the provider signs the administrator in directly.
    const later = new SsoBrowser();
    expect(await later.signIn({ providerId: provider.id })).toMatchObject({ status: 302, location: "/" });
    expect(present(await later.session(), "a session").user.id).toBe(lead.id);
  });

  it("lets an administrator test a provider: it shows what the provider sent and what a real sign-in would do, and makes, links or signs in nobody", async () => {
    const admin = await adminOf();
    const provider = await connect(admin);
    idp.signInAs("sub-tess", {
      email: "tess@acme.test",
      email_verified: true,
      given_name: "Tess",
      family_name: "Tester",
      title: "Pilot",
    });
    const browser = new SsoBrowser();
    browser.keep(
      env.PUBLIC_URL,
      new Headers(admin.cookie.split("; ").map((pair): [string, string] => ["set-cookie", pair])),
    );
    const started = await browser.app(`${env.PUBLIC_URL}/api/auth/sign-in/sso`, {
      method: "POST",
      body: { providerId: provider.id, test: true },
    });
    const startedBody = (await started.json()) as { url: string };
    expect(started.status, JSON.stringify(startedBody)).toBe(200);
    const { url } = startedBody;
    const back = await browser.callback(await browser.atProvider(url));
    const tested = present(/[?&]tested=([^&#]+)/.exec(back.location ?? "")?.[1], "the test's result");
    expect(back.location).toMatch(/^\/admin\/settings\/single-sign-on\?/);

    const page = await run(
      ssoLoader,
      getRequest(`/admin/settings/single-sign-on?tested=${tested}`, admin.cookie),
      {},
      admin.viewer,
    );
    expect((page.data as { test: unknown }).test).toMatchObject({
      providerName: "Acme Login",
      claims: { subject: "sub-tess", emailVerified: true, text: { email: "tess@acme.test" } },
      rehearsal: {
        outcome: "ok",
        account: "new",
        card: { firstName: "Tess", lastName: "Tester", fields: { title: "Pilot" } },
      },
    });
    // Nothing was made, linked or signed in: the browser is still the administrator's.
    expect(await db.select().from(users).where(eq(users.email, "tess@acme.test"))).toEqual([]);
    expect(await db.select().from(ssoIdentities)).toEqual([]);
    expect(present(await browser.session(), "the administrator's session").user.id).toBe(admin.id);
    // Another administrator does not see it, and a member cannot start a test at all.
    const other = await createMember();
    await db.update(users).set({ role: "admin" }).where(eq(users.id, other.id));
    const elsewhere = await run(
      ssoLoader,
      getRequest(`/admin/settings/single-sign-on?tested=${tested}`, other.cookie),
      {},
      {
        ...other.viewer,
        role: "admin",
      },
    );
    expect((elsewhere.data as { test: unknown }).test).toEqual({ gone: true });
    const member = new SsoBrowser();
    member.keep(env.PUBLIC_URL, new Headers([["set-cookie", (await createMember()).cookie]]));
    const refused = await member.app(`${env.PUBLIC_URL}/api/auth/sign-in/sso`, {
      method: "POST",
      body: { providerId: provider.id, test: true },
    });
    expect(refused.status).toBe(403);
  });

  it("makes no new account where only invited people may join, and signs in the one whose card was prepared", async () => {
    const provider = await connect(await adminOf());
    await db.insert(siteSettings).values({ joinRule: "invited" });
    idp.signInAs("sub-stranger", { email: "stranger@acme.test", given_name: "Stranger" });
    const refused = new SsoBrowser();
    expect(await refused.signIn({ providerId: provider.id })).toMatchObject({ location: "/auth?sso=not-allowed" });
    expect(await db.select().from(users).where(eq(users.email, "stranger@acme.test"))).toEqual([]);

    await insertCard({ email: "invited@acme.test", firstName: "In", lastName: "Vited" });
    idp.signInAs("sub-invited", { email: "invited@acme.test", given_name: "In" });
    const invited = new SsoBrowser();
    expect((await invited.signIn({ providerId: provider.id })).location).toBe("/");
    expect((await invited.session())?.user.email).toBe("invited@acme.test");
  });

  it("takes over an unconfirmed sign-up for the address without its password, names or phone", async () => {
    const provider = await connect(await adminOf());
    await db.insert(siteSettings).values({ joinRule: "domains", joinDomains: "acme.test" });
    const squatter = newBrowser();
    await signUpIn(squatter, {
      email: "victim@acme.test",
      password: "the squatter's own phrase",
      firstName: "Mallory",
      lastName: "Squatter",
      phone: "+1 202 555 0199",
    });
    idp.signInAs("sub-victim", { email: "victim@acme.test", given_name: "Victor", family_name: "Tim" });
    const browser = new SsoBrowser();
    expect((await browser.signIn({ providerId: provider.id })).location).toBe("/");
    const [user] = await db.select().from(users).where(eq(users.email, "victim@acme.test"));
    expect(user).toMatchObject({ emailVerified: true, firstName: "Victor", lastName: "Tim", phone: null });
    expect(
      await db
        .select()
        .from(accounts)
        .where(eq(accounts.userId, present(user, "the account").id)),
    ).toEqual([]);
    const [card] = await db.select().from(profiles).where(eq(profiles.email, "victim@acme.test"));
    expect(card).toMatchObject({ firstName: "Victor", lastName: "Tim", phone: null });
  });

  it("refuses a subject with control characters in it, storing nothing", async () => {
    const provider = await connect(await adminOf());
    idp.signInAs("sub\u0000evil", { email: "nul@acme.test", given_name: "Nul" });
    const browser = new SsoBrowser();
    expect(await browser.signIn({ providerId: provider.id })).toMatchObject({ location: "/auth?sso=failed" });
    expect(await db.select().from(users).where(eq(users.email, "nul@acme.test"))).toEqual([]);
  });

  it("starts from a typed address whose domain belongs to the provider, and passes it on as the login hint", async () => {
    await connect(await adminOf());
    const started = await new SsoBrowser().start({ email: "someone@ACME.test" });
    const url = new URL(present(started.body.url, "the provider's address"));
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get("login_hint")).toBe("someone@acme.test");
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("nonce")).toBeTruthy();
    expect((await new SsoBrowser().start({ email: "someone@elsewhere.test" })).body.code).toBe("NO_PROVIDER");
  });
});

describe("a domain that requires single sign-on", () => {
  it("refuses a password sign-in, a reset mail and a sign-up there, sending the person to the provider; ADMIN_EMAILS keep theirs", async () => {
    const admin = await adminOf();
    await connect(admin, { domains: "acme.test\nexample.com", requireSso: true });
    const member = await createMember({ email: "pat@acme.test" });
    const request = getRequest("/auth");
    const message = "Your company signs you in with Acme Login: use “Sign in with Acme Login”.";

    const signIn = await callAuth(request, "/sign-in/email", { email: member.email, password: member.password });
    expect(signIn).toMatchObject({ ok: false, status: 403, code: "SSO_REQUIRED", message });
    const reset = await callAuth(request, "/request-password-reset", { email: member.email });
    expect(reset).toMatchObject({ ok: false, code: "SSO_REQUIRED", message });
    const signUp = await callAuth(request, "/sign-up/email", {
      firstName: "New",
      lastName: "Person",
      email: "new.person@acme.test",
      password: "a long and unusual passphrase",
    });
    expect(signUp).toMatchObject({ ok: false, code: "SSO_REQUIRED" });
    expect(await db.select().from(users).where(eq(users.email, "new.person@acme.test"))).toEqual([]);

    // The break-glass administrator's domain requires it too, and their password still works.
    const adminSignIn = await callAuth(request, "/sign-in/email", { email: admin.email, password: admin.password });
    expect(adminSignIn.ok).toBe(true);

    // On the sign-in page, the break-glass address is asked for its password, never sent to the provider.
    const typed = await run(authAction, formRequest("/auth", { intent: "signin", email: admin.email, password: "" }));
    expect(typed.status).toBe(400);
    expect(typed.data).toMatchObject({
      fieldErrors: { password: ["This address signs in with its password, not through your company's sign-in."] },
      values: { email: admin.email, usePassword: "1" },
    });
    const routedMember = await run(
      authAction,
      formRequest("/auth", { intent: "signin", email: member.email, password: "" }),
    );
    expect(routedMember.status).toBe(302);
    expect(routedMember.location).toContain(idp.issuer);
  });
});

describe("links sent before a domain required single sign-on", () => {
  it("confirm the address but start no password session, and a reset link sets no password", async () => {
    await db.insert(siteSettings).values({ joinRule: "domains", joinDomains: "acme.test" });
    const late = newBrowser();
    await signUpIn(late, { email: "late@acme.test", password: "a phrase chosen late" });
    const link = newestLink("late@acme.test");
    const member = await createMember({ email: "pat@acme.test" });
    await getAuth().api.requestPasswordReset({ body: { email: member.email } });
    const [reset] = await db
      .select({ identifier: verifications.identifier })
      .from(verifications)
      .where(sql`${verifications.identifier} like 'reset-password:%'`);
    const token = present(reset, "a reset token").identifier.replace("reset-password:", "");

    await connect(await adminOf(), { requireSso: true });
    const opened = await openIn(late, link);
    expect(opened).toMatchObject({ status: 302, location: "/auth?sso=required" });
    expect(opened.cookie).not.toMatch(/session_token/);
    const result = await callAuth(getRequest("/auth/reset-password"), "/reset-password", {
      token,
      newPassword: "a brand new long phrase",
    });
    expect(result).toMatchObject({ ok: false, code: "SSO_REQUIRED" });
  });
});

describe("a provider's settings", () => {
  it("are read again from the provider on Check again, and a provider that no longer answers is named with the reason", async () => {
    const admin = await adminOf();
    const provider = await connect(admin);
    const recheck = () =>
      run(
        ssoAction,
        formRequest("/admin/settings/single-sign-on", { intent: "recheck", id: provider.id }, { cookie: admin.cookie }),
        {},
        admin.viewer,
      );
    expect(await recheck()).toMatchObject({ status: 302 });
    // The provider moved and no longer answers at the saved issuer.
    await db
      .update(identityProviders)
      .set({ issuer: "http://127.0.0.1:9/gone" })
      .where(eq(identityProviders.id, provider.id));
    const refused = await recheck();
    expect(refused.status).toBe(400);
    expect((refused.data as { formError: string }).formError).toMatch(
      /^Acme Login: Could not read the provider's settings at http:\/\/127\.0\.0\.1:9\/gone\/\.well-known\/openid-configuration/,
    );
  });

  it("keep the client secret sealed: not in the table in the clear, never listed, never in the audit log", async () => {
    const provider = await connect(await adminOf());
    const [row] = await db.select().from(identityProviders).where(eq(identityProviders.id, provider.id));
    expect(present(row, "the provider").clientSecret).not.toContain(provider.clientSecret);
    const dump = JSON.stringify(rowsOf(await db.execute(sql`select * from identity_providers, audit_log`)));
    expect(dump).not.toContain(provider.clientSecret);
    expect(JSON.stringify(await listProviders())).not.toContain(provider.clientSecret);
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.targetKind, "provider"));
    expect(entry).toMatchObject({ action: "create", targetLabel: "Acme Login" });
    expect(Object.keys(present(entry, "the entry").changes)).toEqual(
      expect.arrayContaining(["name", "issuer", "clientId", "domains"]),
    );
  });

  it("refuse an issuer that is not https (loopback excepted), and a domain another provider signs in", async () => {
    const parsed = ProviderFormSchema.safeParse({
      name: "Plain",
      issuer: "http://login.example.com",
      clientId: "x",
      clientSecret: "y",
      domains: "example.org",
    });
    expect(parsed.success).toBe(false);
    const admin = await adminOf();
    await connect(admin, { domains: "acme.test" });
    await expect(connect(admin, { domains: "acme.test" })).rejects.toMatchObject({
      fieldErrors: { domains: ["acme.test already signs in through Acme Login"] },
    });
  });
});
