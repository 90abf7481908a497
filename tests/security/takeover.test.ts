import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { INVALID_LINK, TOO_MANY_MAILS } from "~/.server/http/auth-plugin";
import { db } from "~/.server/platform/db/client";
import { profiles, users } from "~/.server/platform/db/schema";
import { mailSettled } from "~/.server/platform/mail";
import { action as authAction } from "~/routes/auth/auth";
import { action as confirmAction, loader as confirmLoader } from "~/routes/auth/confirm";
import {
  cookieFrom,
  createMember,
  formRequest,
  getRequest,
  latestMail,
  MEMBER_PASSWORD,
  run,
  uniqueEmail,
} from "../server/helpers";
import {
  type Browser,
  newBrowser,
  newestLink,
  openIn,
  reachesAdmin,
  signInWith,
  signUpIn,
  viewerOf,
} from "./accounts-support";

const STRANGER_PASSWORD = "stranger picked this one";
const OWNER_PASSWORD = "owner's own secret phrase";

async function prepareCard(email: string) {
  const [card] = await db
    .insert(profiles)
    .values({ email, firstName: "Pre", lastName: "Pared", username: `pre.${Date.now()}`, viewCount: 3 })
    .returning();
  return card!;
}

async function userByEmail(email: string) {
  const [user] = await db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  return user ?? null;
}

/** Fills and sends the confirmation page's form, as the mailbox owner in another browser. */
async function confirmOnPage(browser: Browser, location: string, fields: { password: string; firstName: string }) {
  const token = new URL(location, "http://localhost").searchParams.get("token")!;
  const page = await run(confirmLoader, getRequest(`/auth/confirm?token=${token}`, browser.cookie));
  expect(page.data).toMatchObject({ token, pending: { email: expect.any(String) } });
  const result = await run(
    confirmAction,
    formRequest(
      "/auth/confirm",
      { token, firstName: fields.firstName, lastName: "Owner", phone: "", password: fields.password },
      { cookie: browser.cookie, ip: browser.ip },
    ),
  );
  browser.cookie = cookieFrom(result.headers, browser.cookie);
  return result;
}

const targets = [
  { kind: "the administrator's address", email: () => "admin@example.com", admin: true },
  { kind: "a card an administrator prepared", email: () => uniqueEmail("prepared"), admin: false },
] as const;

describe("nobody takes over an address before its owner confirms it", () => {
  it.each(targets)(
    "$kind: a stranger signs up first, the owner signs up and opens the newest link; only the owner's password works",
    async (target) => {
      const email = target.email();
      const card = target.admin ? null : await prepareCard(email);
      const stranger = newBrowser();
      const owner = newBrowser();

      await signUpIn(stranger, { email, password: STRANGER_PASSWORD, firstName: "Mallory" });
      const strangersLink = newestLink(email);
      const ownerSignUp = await signUpIn(owner, { email, password: OWNER_PASSWORD, firstName: "Olive" });
      expect(ownerSignUp.data).toMatchObject({ sent: email });
      const ownersLink = newestLink(email);
      expect(ownersLink).not.toBe(strangersLink);

      // The older link stopped working, even in the browser that made it.
      const stale = await openIn(stranger, strangersLink);
      expect(stale.location).toBe("/auth/verified?error=INVALID_TOKEN");
      expect(await viewerOf(stranger)).toBeNull();

      // The owner opens the only live link in the browser they signed up with.
      const opened = await openIn(owner, ownersLink);
      expect(opened).toMatchObject({ status: 302, location: "/" });
      expect((await viewerOf(owner))?.user.email).toBe(email);

      const strangerTry = newBrowser();
      expect((await signInWith(email, STRANGER_PASSWORD, strangerTry)).data).toMatchObject({
        formError: "Invalid email or password",
      });
      expect(await reachesAdmin(strangerTry)).toBe(false);
      const ownerAgain = newBrowser();
      expect((await signInWith(email, OWNER_PASSWORD, ownerAgain)).status).toBe(302);
      expect(await reachesAdmin(ownerAgain)).toBe(target.admin);

      const user = await userByEmail(email);
      expect(user).toMatchObject({ emailVerified: true, firstName: "Olive" });
      if (card) {
        const [claimed] = await db.select().from(profiles).where(eq(profiles.id, card.id));
        expect(claimed).toMatchObject({ userId: user!.id, firstName: "Olive" });
      }
    },
  );

  it.each(targets)(
    "$kind: the owner opens the stranger's link before signing up, and chooses the password there",
    async (target) => {
      const email = target.email();
      const card = target.admin ? null : await prepareCard(email);
      const stranger = newBrowser();
      await signUpIn(stranger, { email, password: STRANGER_PASSWORD, firstName: "Mallory" });
      const link = newestLink(email);

      // The owner's browser never signed up: the link asks for a password instead of activating the stranger's.
      const owner = newBrowser();
      const opened = await openIn(owner, link);
      expect(opened.location).toMatch(/^\/auth\/confirm\?token=/);
      expect(await viewerOf(owner)).toBeNull();
      expect((await userByEmail(email))?.emailVerified).toBe(false);

      const confirmed = await confirmOnPage(owner, opened.location!, { password: OWNER_PASSWORD, firstName: "Olive" });
      expect(confirmed).toMatchObject({ status: 302, location: "/" });
      expect((await viewerOf(owner))?.user.email).toBe(email);

      // The stranger's password never became valid, and their browser holds nothing.
      expect((await signInWith(email, STRANGER_PASSWORD)).data).toMatchObject({
        formError: "Invalid email or password",
      });
      expect(await reachesAdmin(stranger)).toBe(false);
      expect((await openIn(stranger, link)).location).toBe("/auth/verified?error=INVALID_TOKEN");
      const ownerAgain = newBrowser();
      expect((await signInWith(email, OWNER_PASSWORD, ownerAgain)).status).toBe(302);
      expect(await reachesAdmin(ownerAgain)).toBe(target.admin);
      if (card) {
        const [claimed] = await db.select().from(profiles).where(eq(profiles.id, card.id));
        expect(claimed).toMatchObject({ userId: (await userByEmail(email))!.id, firstName: "Olive" });
      }
    },
  );

  it("a stranger who signs up after the owner cannot turn the owner's newest link against them", async () => {
    const email = uniqueEmail("owner-first");
    const owner = newBrowser();
    const stranger = newBrowser();
    await signUpIn(owner, { email, password: OWNER_PASSWORD, firstName: "Olive" });
    const ownersLink = newestLink(email);
    await signUpIn(stranger, { email, password: STRANGER_PASSWORD, firstName: "Mallory" });
    const newest = newestLink(email);

    expect((await openIn(owner, ownersLink)).location).toBe("/auth/verified?error=INVALID_TOKEN");
    // The newest link was made by the stranger's sign-up: in the owner's browser it asks for the password.
    const opened = await openIn(owner, newest);
    expect(opened.location).toMatch(/^\/auth\/confirm\?token=/);
    await confirmOnPage(owner, opened.location!, { password: OWNER_PASSWORD, firstName: "Olive" });

    expect((await signInWith(email, STRANGER_PASSWORD)).status).toBe(400);
    expect((await signInWith(email, OWNER_PASSWORD)).status).toBe(302);
  });

  it("a link works once: opening it again after confirming changes nothing", async () => {
    const email = uniqueEmail();
    const browser = newBrowser();
    await signUpIn(browser, { email, password: OWNER_PASSWORD });
    const link = newestLink(email);
    expect((await openIn(browser, link)).location).toBe("/");
    const other = newBrowser();
    expect((await openIn(other, link)).location).toBe("/auth/verified?error=INVALID_TOKEN");
    expect((await run(confirmLoader, getRequest(`/auth/confirm?${new URL(link).search.slice(1)}`))).data).toEqual({
      token: "",
      pending: null,
    });
  });

  it("the confirmation form refuses a used link with a clear message and changes nothing", async () => {
    const email = uniqueEmail();
    const browser = newBrowser();
    await signUpIn(browser, { email, password: OWNER_PASSWORD });
    const token = new URL(newestLink(email)).searchParams.get("token")!;
    await openIn(browser, newestLink(email));
    const late = await run(
      confirmAction,
      formRequest("/auth/confirm", {
        token,
        firstName: "Late",
        lastName: "Comer",
        phone: "",
        password: STRANGER_PASSWORD,
      }),
    );
    expect(late).toMatchObject({ status: 400, data: { formError: INVALID_LINK } });
    expect((await signInWith(email, STRANGER_PASSWORD)).status).toBe(400);
  });
});

describe("signing up again, and mail that cannot be abused", () => {
  it("a sign-up for an address that has an account mails 'you already have an account' and changes nothing", async () => {
    const { email } = await createMember();
    const browser = newBrowser();
    const again = await signUpIn(browser, { email, password: STRANGER_PASSWORD, firstName: "Mallory" });
    // The same answer as for a new address: nothing tells the visitor the account exists.
    expect(again).toMatchObject({ status: 200, data: { sent: email } });
    expect(again.headers.getSetCookie().some((cookie) => cookie.startsWith("namecard.pending_sign_up="))).toBe(true);
    const mail = latestMail(email)!;
    expect(mail.subject).toBe("You already have a Namecard account");
    expect(mail.raw).not.toContain("Mallory");
    expect((await signInWith(email, STRANGER_PASSWORD)).status).toBe(400);
    expect((await signInWith(email, MEMBER_PASSWORD)).status).toBe(302);
  });

  it("never writes the name someone typed into a mail to an address nobody has confirmed", async () => {
    const email = uniqueEmail();
    await signUpIn(newBrowser(), {
      email,
      password: OWNER_PASSWORD,
      firstName: "Urgent",
      lastName: "Reset your bank password at evil.example",
    });
    const mail = latestMail(email)!;
    expect(mail.subject).toBe("Confirm your email for Namecard");
    expect(mail.raw).toContain("Hello,");
    expect(mail.raw).not.toMatch(/Urgent|evil\.example/);
  });

  it("sends at most three account mails an hour to one address, whoever asks, and says so", async () => {
    const email = uniqueEmail("quota");
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await signUpIn(newBrowser(), { email, password: OWNER_PASSWORD })).status).toBe(200);
    }
    const mailBefore = latestMail(email)!.file;
    const fourth = await signUpIn(newBrowser(), { email, password: STRANGER_PASSWORD });
    expect(fourth).toMatchObject({ status: 429, data: { formError: TOO_MANY_MAILS } });
    const resent = await run(authAction, formRequest("/auth", { intent: "resend", email }));
    expect(resent).toMatchObject({ status: 429, data: { notice: TOO_MANY_MAILS } });
    await mailSettled();
    expect(latestMail(email)!.file).toBe(mailBefore);
    // Another address is not affected.
    expect((await signUpIn(newBrowser(), { email: uniqueEmail("quota"), password: OWNER_PASSWORD })).status).toBe(200);
  });

  it("the check-your-email screen sends a fresh link (older ones stop working) and offers to correct the address", async () => {
    const email = uniqueEmail();
    const browser = newBrowser();
    await signUpIn(browser, { email, password: OWNER_PASSWORD, firstName: "Rita", phone: "+1 555 0100" });
    const first = newestLink(email);

    const resent = await run(
      authAction,
      formRequest(
        "/auth",
        { intent: "resend", email, firstName: "Rita", lastName: "One", phone: "+1 555 0100" },
        browser,
      ),
    );
    expect(resent).toMatchObject({ status: 200, data: { sent: email, resent: true } });
    await mailSettled();
    const second = newestLink(email);
    expect(second).not.toBe(first);
    expect((await openIn(browser, first)).location).toBe("/auth/verified?error=INVALID_TOKEN");

    const correct = await run(
      authAction,
      formRequest("/auth", { intent: "correct", email, firstName: "Rita", lastName: "One", phone: "+1 555 0100" }),
    );
    expect(correct.data).toEqual({
      values: { intent: "signup", email, firstName: "Rita", lastName: "One", phone: "+1 555 0100" },
    });

    // The browser that signed up still opens the newest link directly.
    expect((await openIn(browser, second)).location).toBe("/");
  });

  it("signing in before confirming sends a new link that this browser, which knows the password, opens directly", async () => {
    const email = uniqueEmail();
    await signUpIn(newBrowser(), { email, password: OWNER_PASSWORD });
    const laptop = newBrowser();
    const attempt = await signInWith(email, OWNER_PASSWORD, laptop);
    expect(attempt.data).toMatchObject({
      formError: "Email not verified. We've sent you a new link: open it to finish signing up.",
    });
    expect((await openIn(laptop, newestLink(email))).location).toBe("/");
    // With a wrong password the link still goes out, but opens the password form.
    const email2 = uniqueEmail();
    await signUpIn(newBrowser(), { email: email2, password: OWNER_PASSWORD });
    const guesser = newBrowser();
    expect((await signInWith(email2, STRANGER_PASSWORD, guesser)).data).toMatchObject({
      formError: "Invalid email or password",
    });
    expect((await openIn(guesser, newestLink(email2))).location).toMatch(/^\/auth\/confirm\?token=/);
  });
});
