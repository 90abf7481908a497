import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getAuth } from "~/.server/http/auth";
import { getOptionalViewer, requireViewer } from "~/.server/http/authz";
import { db } from "~/.server/platform/db/client";
import {
  auditLog,
  identityProviderDomains,
  identityProviders,
  passkeys,
  sessions,
  siteSettings,
  twoFactors,
  users,
} from "~/.server/platform/db/schema";
import { mailSettled } from "~/.server/platform/mail";
import { sealSecret } from "~/.server/sso/secrets";
import { action as profilesAction, loader as profilesLoader } from "~/routes/admin/profiles";
import { action as securitySettingsAction } from "~/routes/admin/settings/security";
import { action as securityAction, loader as securityLoader } from "~/routes/app/security";
import { action as passkeysAction } from "~/routes/app/security-passkeys";
import { action as authAction } from "~/routes/auth/auth";
import { action as stepAction } from "~/routes/auth/two-factor";
import { action as setupAction, loader as setupLoader } from "~/routes/auth/two-factor-setup";
import { totpCode } from "../support/totp";
import {
  cookieFrom,
  createMember,
  formRequest,
  getRequest,
  latestMail,
  multipartRequest,
  present,
  run,
} from "./helpers";

type Member = Awaited<ReturnType<typeof createMember>>;
type Setup = { setup?: { uri: string; key: string; recoveryCodes: string[] } };

/** Sets the authenticator app up from the security page, as a member does: password, then the app's first code. */
async function setUpApp(member: Member) {
  const begun = await run(
    securityAction,
    formRequest("/account/security", { intent: "app-begin", password: member.password }, { cookie: member.cookie }),
    {},
    member.viewer,
  );
  const setup = present((begun.data as Setup).setup, "the set-up");
  const confirmed = await run(
    securityAction,
    formRequest(
      "/account/security",
      {
        intent: "app-confirm",
        uri: setup.uri,
        recoveryCodes: setup.recoveryCodes.join(" "),
        code: totpCode(setup.uri),
      },
      { cookie: member.cookie },
    ),
    {},
    member.viewer,
  );
  expect(confirmed.status).toBe(302);
  return { ...setup, cookie: cookieFrom(confirmed.headers, member.cookie) };
}

/** A password sign-in on /auth: where it leads, and the browser's cookies after it. */
async function signInWithPassword(member: Member, redirectTo = "/directory") {
  const result = await run(
    authAction,
    formRequest("/auth", { intent: "signin", email: member.email, password: member.password, redirectTo }),
  );
  return { status: result.status, location: result.location, cookie: cookieFrom(result.headers) };
}

async function secondStep(cookie: string, fields: Record<string, string>) {
  const result = await run(
    stepAction,
    formRequest("/auth/two-factor", { redirectTo: "/directory", ...fields }, { cookie }),
  );
  return { ...result, cookie: cookieFrom(result.headers, cookie) };
}

/** A passkey kept for an account, as registering one on a phone leaves it (the key itself is not used here). */
function insertPasskey(id: string, userId: string) {
  return db.insert(passkeys).values({
    id,
    name: "Phone",
    publicKey: "AAAA",
    userId,
    credentialID: `credential-of-${id}`,
    counter: 0,
    deviceType: "multiDevice",
    backedUp: true,
  });
}

/** The profiles page's forms are multipart, as its upload of photos makes them. */
function profilesForm(fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return multipartRequest("/admin/profiles", form);
}

async function askSecondFactorOf(rule: "admins" | "everyone" | "nobody", admin: Member) {
  const saved = await run(
    securitySettingsAction,
    formRequest("/admin/settings/security", { secondFactorRule: rule }, { cookie: admin.cookie }),
    {},
    admin.viewer,
  );
  expect(saved.status).toBe(302);
}

describe("an authenticator app after the password", () => {
  it("is set up with the password and the app's first code, and from then on a password sign-in asks for the code", async () => {
    const member = await createMember();
    const app = await setUpApp(member);
    expect(app.recoveryCodes).toHaveLength(10);
    for (const code of app.recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(app.uri).toMatch(/^otpauth:\/\/totp\//);
    const [stored] = await db.select().from(twoFactors).where(eq(twoFactors.userId, member.id));
    // The secret is kept encrypted, never as the app's key.
    expect(present(stored, "the app").secret).not.toContain(app.key.replace(/ /g, ""));
    const loaded = await run(securityLoader, getRequest("/account/security", app.cookie), {}, member.viewer);
    expect(loaded.data).toMatchObject({ authenticator: true });
    // The sessions that rested on the password alone ended; the owner was told by mail.
    expect(await getOptionalViewer(getRequest("/directory", member.cookie))).toBeNull();
    await mailSettled();
    expect(latestMail(member.email)?.subject).toBe("Your Namecard sign-in changed");

    const signIn = await signInWithPassword(member);
    expect(signIn.location).toBe("/auth/two-factor?redirectTo=%2Fdirectory");
    // The right password alone signed nobody in.
    expect(signIn.cookie).not.toMatch(/session_token/);
    expect(await getOptionalViewer(getRequest("/directory", signIn.cookie))).toBeNull();

    const wrong = await secondStep(signIn.cookie, {
      intent: "code",
      code: "000000" === totpCode(app.uri) ? "111111" : "000000",
    });
    expect(wrong.status).toBe(400);
    expect(wrong.data).toMatchObject({ fieldErrors: { code: [expect.stringMatching(/not right/)] } });

    const right = await secondStep(signIn.cookie, { intent: "code", code: totpCode(app.uri) });
    expect(right.location).toBe("/directory");
    const viewer = await getOptionalViewer(getRequest("/directory", right.cookie));
    expect(viewer?.user.id).toBe(member.id);
    const strong = await db.select().from(sessions).where(eq(sessions.secondFactor, true));
    expect(strong.map((row) => row.userId)).toContain(member.id);
  });

  it("takes each recovery code once, spaces and dashes as typed", async () => {
    const member = await createMember();
    const app = await setUpApp(member);
    const code = present(app.recoveryCodes[0], "a recovery code");
    const first = await signInWithPassword(member);
    // Typed as read off paper: in capitals, without its dash, with a space.
    const used = await secondStep(first.cookie, {
      intent: "recovery",
      code: ` ${code.replace("-", "").toUpperCase()} `,
    });
    expect(used.location).toBe("/directory");
    const again = await signInWithPassword(member);
    const refused = await secondStep(again.cookie, { intent: "recovery", code });
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({
      fieldErrors: { code: ["That recovery code is not right, or was used already."] },
    });
  });

  it("ends the sign-in after five wrong codes, so the password has to be typed again", async () => {
    const member = await createMember();
    const app = await setUpApp(member);
    const signIn = await signInWithPassword(member);
    const wrongCode = totpCode(app.uri) === "123456" ? "654321" : "123456";
    let last = await secondStep(signIn.cookie, { intent: "code", code: wrongCode });
    for (let attempt = 0; attempt < 6 && !(last.data as { expired?: boolean }).expired; attempt++) {
      last = await secondStep(signIn.cookie, { intent: "code", code: wrongCode });
    }
    expect(last.data).toMatchObject({ expired: true });
    // Even the right code no longer finishes this sign-in.
    const late = await secondStep(signIn.cookie, { intent: "code", code: totpCode(app.uri) });
    expect(late.location).toBeNull();
  });

  it("is not set up with a wrong password, and nothing is kept", async () => {
    const member = await createMember();
    const begun = await run(
      securityAction,
      formRequest("/account/security", { intent: "app-begin", password: "not my password" }, { cookie: member.cookie }),
      {},
      member.viewer,
    );
    expect(begun.status).toBe(400);
    expect(begun.data).toMatchObject({ fieldErrors: { password: ["That is not your password."] } });
    expect(await db.select().from(twoFactors).where(eq(twoFactors.userId, member.id))).toEqual([]);
  });

  it("is turned off with the password, and the next password sign-in is a password's again", async () => {
    const member = await createMember();
    const app = await setUpApp(member);
    const viewer = await requireViewer(getRequest("/", app.cookie));
    const off = await run(
      securityAction,
      formRequest("/account/security", { intent: "app-off", password: member.password }, { cookie: app.cookie }),
      {},
      viewer,
    );
    expect(off.status).toBe(302);
    const [account] = await db.select({ on: users.twoFactorEnabled }).from(users).where(eq(users.id, member.id));
    expect(account?.on).toBe(false);
    expect((await signInWithPassword(member)).location).toBe("/directory");
  });
});

describe("a second step the administrators ask for", () => {
  it("opens nothing but its set-up after a password sign-in of everyone, until the app is on", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const member = await createMember();
    await askSecondFactorOf("everyone", admin);
    const [audited] = await db.select().from(auditLog).where(eq(auditLog.action, "settings"));
    expect(JSON.stringify(present(audited, "the audit entry").changes)).toMatch(/everyone/);

    // The session the member already holds rested on a password alone: it opens only the set-up now.
    expect(await getOptionalViewer(getRequest("/directory", member.cookie))).toBeNull();
    const sent = await requireViewer(getRequest("/directory", member.cookie)).catch((thrown: Response) => thrown);
    expect((sent as Response).headers.get("location")).toBe("/auth/two-factor-setup?redirectTo=%2Fdirectory");
    expect((await run(setupLoader, getRequest("/auth/two-factor-setup", member.cookie))).data).toMatchObject({
      email: member.email,
    });

    const begun = await run(
      setupAction,
      formRequest(
        "/auth/two-factor-setup",
        { intent: "app-begin", password: member.password },
        { cookie: member.cookie },
      ),
    );
    const setup = present((begun.data as Setup).setup, "the set-up");
    const done = await run(
      setupAction,
      formRequest(
        "/auth/two-factor-setup",
        {
          intent: "app-confirm",
          uri: setup.uri,
          recoveryCodes: setup.recoveryCodes.join(" "),
          code: totpCode(setup.uri),
          redirectTo: "/directory",
        },
        { cookie: member.cookie },
      ),
    );
    expect(done.location).toBe("/directory");
    const viewer = await getOptionalViewer(getRequest("/directory", cookieFrom(done.headers, member.cookie)));
    expect(viewer?.user.id).toBe(member.id);
  });

  it("asks administrators only when the rule says administrators", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const member = await createMember();
    await askSecondFactorOf("admins", admin);
    expect(await getOptionalViewer(getRequest("/directory", member.cookie))).not.toBeNull();
    expect(await getOptionalViewer(getRequest("/directory", admin.cookie))).toBeNull();
  });

  it("keeps the app on while the company asks for it", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const app = await setUpApp(admin);
    await db
      .insert(siteSettings)
      .values({ id: 1, secondFactorRule: "everyone" })
      .onConflictDoUpdate({ target: siteSettings.id, set: { secondFactorRule: "everyone" } });
    const viewer = await requireViewer(getRequest("/", app.cookie));
    const off = await run(
      securityAction,
      formRequest("/account/security", { intent: "app-off", password: admin.password }, { cookie: app.cookie }),
      {},
      viewer,
    );
    expect(off.status).toBe(409);
    const [account] = await db.select({ on: users.twoFactorEnabled }).from(users).where(eq(users.id, admin.id));
    expect(account?.on).toBe(true);
  });

  it("asks the ADMIN_EMAILS addresses for one at their next password sign-in once any provider is required, since their password is then the way in", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    expect(await getOptionalViewer(getRequest("/", admin.cookie))).not.toBeNull();
    const id = "5b0c8a3e-9f57-4b8e-8c0c-2d0a4d5c9e01";
    await db.insert(identityProviders).values({
      id,
      name: "Acme Login",
      issuer: "https://login.acme.test",
      clientId: "namecard",
      clientSecret: sealSecret("secret", id),
      authorizationOrigin: "https://login.acme.test",
      requireSso: true,
      requiredSince: new Date(),
    });
    await db.insert(identityProviderDomains).values({ domain: "acme.test", providerId: id });
    // The session in which it became required goes on: the administrator is usually in it.
    expect(await getOptionalViewer(getRequest("/", admin.cookie))).not.toBeNull();
    // The next password sign-in owes its second step.
    const again = await signInWithPassword(admin, "/");
    expect(again.location).toBe("/");
    expect(await getOptionalViewer(getRequest("/", again.cookie))).toBeNull();
    expect((await run(setupLoader, getRequest("/auth/two-factor-setup", again.cookie))).data).toMatchObject({
      email: "admin@example.com",
    });
  });
});

describe("a password someone else learned", () => {
  it("cannot add an app beside the account's passkey from a password sign-in the company asks a second step of", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    await insertPasskey("pk-admin", admin.id);
    await askSecondFactorOf("admins", admin);
    // The password sign-in owes its second step; the account's way in is its passkey.
    expect(await getOptionalViewer(getRequest("/", admin.cookie))).toBeNull();
    const begun = await run(
      setupAction,
      formRequest(
        "/auth/two-factor-setup",
        { intent: "app-begin", password: admin.password },
        { cookie: admin.cookie },
      ),
    );
    expect(begun.status).toBe(409);
    expect(begun.data).toMatchObject({ formError: expect.stringMatching(/sign in with the passkey/) });
    expect(await db.select().from(twoFactors)).toEqual([]);
  });

  it("is guessed no faster from a held session than on the sign-in page: wrong passwords make it wait", async () => {
    const member = await createMember();
    let last = { status: 0, data: null as unknown };
    for (let attempt = 0; attempt < 7 && last.status !== 429; attempt++) {
      last = await run(
        securityAction,
        formRequest(
          "/account/security",
          { intent: "app-begin", password: `guess ${attempt}` },
          { cookie: member.cookie },
        ),
        {},
        member.viewer,
      );
    }
    expect(last.status).toBe(429);
    expect(last.data).toMatchObject({
      fieldErrors: { password: [expect.stringMatching(/^Too many wrong passwords/)] },
    });
    // Even the right password waits now.
    const right = await run(
      securityAction,
      formRequest("/account/security", { intent: "app-begin", password: member.password }, { cookie: member.cookie }),
      {},
      member.viewer,
    );
    expect(right.status).toBe(429);
  });

  it("adds no passkey without the password", async () => {
    const member = await createMember();
    const asked = await run(
      passkeysAction,
      formRequest(
        "/account/security/passkeys",
        { intent: "passkey-options", password: "not it" },
        { cookie: member.cookie },
      ),
      {},
      member.viewer,
    );
    expect(asked.status).toBe(400);
    const options = await run(
      passkeysAction,
      formRequest(
        "/account/security/passkeys",
        { intent: "passkey-options", password: member.password },
        { cookie: member.cookie },
      ),
      {},
      member.viewer,
    );
    expect(options.status).toBe(200);
  });
});

describe("setting factors up from outside the account's pages", () => {
  it("is not open to the browser: better-auth's endpoints that add or remove a factor answer 404", async () => {
    const member = await createMember();
    for (const [method, path] of [
      ["POST", "/two-factor/enable"],
      ["POST", "/two-factor/disable"],
      ["POST", "/two-factor/generate-backup-codes"],
      ["GET", "/passkey/generate-register-options"],
      ["POST", "/passkey/verify-registration"],
      ["POST", "/passkey/delete-passkey"],
      ["GET", "/passkey/list-user-passkeys"],
    ] as const) {
      const response = await getAuth().handler(
        new Request(`http://localhost:3000/api/auth${path}`, {
          method,
          headers: { cookie: member.cookie, origin: "http://localhost:3000", "content-type": "application/json" },
          body: method === "POST" ? JSON.stringify({ password: member.password }) : undefined,
        }),
      );
      expect(response.status, path).toBe(404);
    }
    expect(await db.select().from(twoFactors)).toEqual([]);
  });

  it("removes only the account's own passkeys", async () => {
    const owner = await createMember();
    const other = await createMember();
    await insertPasskey("pk-owner", owner.id);
    const tried = await run(
      securityAction,
      formRequest("/account/security", { intent: "passkey-remove", id: "pk-owner" }, { cookie: other.cookie }),
      {},
      other.viewer,
    );
    expect(tried.status).toBe(404);
    expect(await db.select().from(passkeys)).toHaveLength(1);
    await run(
      securityAction,
      formRequest("/account/security", { intent: "passkey-remove", id: "pk-owner" }, { cookie: owner.cookie }),
      {},
      owner.viewer,
    );
    expect(await db.select().from(passkeys)).toEqual([]);
  });
});

describe("a lost phone", () => {
  it("is helped by an administrator, who removes the person's app and passkeys, signs them out and leaves a record", async () => {
    const admin = await createMember({ email: "admin@example.com" });
    const member = await createMember();
    const app = await setUpApp(member);
    const listed = await run(profilesLoader, getRequest("/admin/profiles", admin.cookie), {}, admin.viewer);
    const row = (listed.data as { management: { rows: { id: string; secondFactor: boolean }[] } }).management.rows.find(
      (candidate) => candidate.id === member.profile.id,
    );
    expect(row?.secondFactor).toBe(true);

    const removed = await run(
      profilesAction,
      await profilesForm({ intent: "remove-second-factor", id: member.profile.id }),
      {},
      admin.viewer,
    );
    expect(removed.status).toBe(302);
    expect(await db.select().from(twoFactors).where(eq(twoFactors.userId, member.id))).toEqual([]);
    // Signed out everywhere, the session that passed the app included.
    expect(await getOptionalViewer(getRequest("/directory", app.cookie))).toBeNull();
    expect((await signInWithPassword(member)).location).toBe("/directory");
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.action, "second-factor"));
    expect(present(entry, "the audit entry").changes).toEqual({ "second step": ["authenticator app", null] });
  });

  it("is never helped by a member, who cannot remove another's second step", async () => {
    const member = await createMember();
    const other = await createMember();
    await setUpApp(other);
    const tried = await run(
      profilesAction,
      await profilesForm({ intent: "remove-second-factor", id: other.profile.id }),
      {},
      member.viewer,
    );
    expect(tried.status).toBe(403);
    const [account] = await db.select({ on: users.twoFactorEnabled }).from(users).where(eq(users.id, other.id));
    expect(account?.on).toBe(true);
  });
});
