import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getOptionalViewer } from "~/.server/http/authz";
import { readToast } from "~/.server/http/toast";
import { db } from "~/.server/platform/db/client";
import { profiles, users } from "~/.server/platform/db/schema";
import { mailSettled } from "~/.server/platform/mail";
import { action as authAction } from "~/routes/auth/auth";
import { action as forgotAction } from "~/routes/auth/forgot-password";
import { action as resetAction } from "~/routes/auth/reset-password";
import { action as signOutAction } from "~/routes/auth/sign-out";
import {
  cookieFrom,
  createMember,
  formRequest,
  getRequest,
  latestMail,
  nextIp,
  openAuthLink,
  present,
  run,
  uniqueEmail,
} from "./helpers";

const PASSWORD = "correct horse battery";

async function signUp(fields: {
  email: string;
  firstName?: string;
  lastName?: string;
  phone?: string;
  password?: string;
}) {
  const result = await run(
    authAction,
    formRequest("/auth", {
      intent: "signup",
      firstName: fields.firstName ?? "Grace",
      lastName: fields.lastName ?? "Hopper",
      email: fields.email,
      password: fields.password ?? PASSWORD,
      phone: fields.phone ?? "",
    }),
  );
  await mailSettled();
  return result;
}

async function signIn(email: string, password = PASSWORD, ip = nextIp()) {
  return run(authAction, formRequest("/auth", { intent: "signin", email, password }, { ip }));
}

/** Signs up and opens the link from the outbox; returns the signed-in cookie. */
async function signUpAndVerify(fields: Parameters<typeof signUp>[0]) {
  const result = await signUp(fields);
  expect(result.status).toBe(200);
  // Opened in the browser that signed up: its pending-sign-up cookie goes along.
  const opened = await openAuthLink(
    present(latestMail(fields.email)?.link, "a confirmation link"),
    cookieFrom(result.headers),
  );
  expect(opened.status).toBe(302);
  return opened.cookie;
}

async function profileByEmail(email: string) {
  const [row] = await db.select().from(profiles).where(sql`lower(${profiles.email}) = ${email.toLowerCase()}`);
  return row ?? null;
}

describe("signing up", () => {
  it("sends a confirmation link and creates no card until the address is confirmed", async () => {
    const email = uniqueEmail();
    const result = await signUp({ email });
    expect(result.status).toBe(200);
    expect(result.data).toMatchObject({ sent: email });

    const [user] = await db.select().from(users).where(eq(users.email, email));
    expect(user?.emailVerified).toBe(false);
    expect(await profileByEmail(email)).toBeNull();

    const mail = latestMail(email);
    expect(mail?.subject).toBe("Confirm your email for Namecard");
    expect(mail?.link).toContain("/api/auth/confirm-email?token=");
  });

  it("signs the member in and creates their card with a first.last username once the link is opened", async () => {
    const email = uniqueEmail();
    const cookie = await signUpAndVerify({ email, firstName: "Grace", lastName: "Van Hopper", phone: "+1 555 0100" });
    expect(cookie).toContain("namecard.session_token=");

    const profile = await profileByEmail(email);
    expect(profile).toMatchObject({
      firstName: "Grace",
      lastName: "Van Hopper",
      username: "grace.vanhopper",
      phone: "+1 555 0100",
      viewCount: 0,
    });
    const viewer = await getOptionalViewer(getRequest("/", cookie));
    expect(viewer?.profile?.id).toBe(present(profile, "the new card").id);
    expect(viewer?.isAdmin).toBe(false);
  });

  it("gives a second person with the same name a numbered username", async () => {
    await signUpAndVerify({ email: uniqueEmail(), firstName: "Ann", lastName: "Lee" });
    const second = uniqueEmail();
    await signUpAndVerify({ email: second, firstName: "Ann", lastName: "Lee" });
    expect((await profileByEmail(second))?.username).toBe("ann.lee2");
  });

  it("shows each missing field and a short password on the form, creating nothing", async () => {
    const result = await run(
      authAction,
      formRequest("/auth", {
        intent: "signup",
        firstName: " ",
        lastName: "",
        email: "not-an-email",
        password: "short",
      }),
    );
    expect(result.status).toBe(400);
    expect(result.data).toMatchObject({
      values: { intent: "signup" },
      fieldErrors: {
        firstName: ["Enter a first name"],
        lastName: ["Enter a last name"],
        email: ["Enter an email address such as name@company.com"],
        password: ["Use at least 8 characters for the password"],
      },
    });
    const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
    expect(count?.n).toBe(0);
  });
});

describe("claiming a card an administrator prepared", () => {
  async function prepareCard(email: string) {
    const [card] = await db
      .insert(profiles)
      .values({ email, firstName: "Pre", lastName: "Pared", username: "pre.pared", title: "Buyer", viewCount: 7 })
      .returning();
    return present(card, "the prepared card");
  }

  it("links the prepared card to the member once they confirm the same address, in any letter case", async () => {
    const email = uniqueEmail("claim");
    const card = await prepareCard(email);
    const cookie = await signUpAndVerify({
      email: email.toUpperCase(),
      firstName: "Priya",
      lastName: "Raman",
      phone: "+44 20 7946 0000",
    });

    const [claimed] = await db.select().from(profiles).where(eq(profiles.id, card.id));
    const [user] = await db.select().from(users).where(sql`lower(${users.email}) = ${email}`);
    expect(claimed).toMatchObject({
      userId: present(user, "the account").id,
      firstName: "Priya",
      lastName: "Raman",
      phone: "+44 20 7946 0000",
      username: "pre.pared",
      title: "Buyer",
      viewCount: 7,
    });
    expect(claimed?.claimedAt).toBeInstanceOf(Date);
    const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(profiles);
    expect(count?.n).toBe(1);
    expect((await getOptionalViewer(getRequest("/", cookie)))?.profile?.id).toBe(card.id);
  });

  it("leaves the card unclaimed while the address is unconfirmed, and sign-in asks for confirmation", async () => {
    const email = uniqueEmail("claim");
    const card = await prepareCard(email);
    await signUp({ email });

    const [still] = await db.select().from(profiles).where(eq(profiles.id, card.id));
    expect(still?.userId).toBeNull();

    const attempt = await signIn(email);
    expect(attempt.status).toBe(400);
    expect(attempt.data).toMatchObject({ formError: expect.stringContaining("Email not verified") });
  });

  it("never gives a claimed card back, even when the member's account goes away", async () => {
    const email = uniqueEmail("claim");
    const card = await prepareCard(email);
    await signUpAndVerify({ email });
    const [user] = await db.select().from(users).where(eq(users.email, email));
    // A second verification event for the same user changes nothing.
    const { claimOrCreateProfile } = await import("~/.server/profiles/claim-profile");
    const again = await claimOrCreateProfile({ ...present(user, "the account"), emailVerified: true });
    expect(again).toMatchObject({ outcome: "existing", profile: { id: card.id } });
  });
});

describe("signing in", () => {
  it("signs a confirmed member in and returns them where they were going", async () => {
    const { email } = await createMember({ password: PASSWORD });
    const result = await run(
      authAction,
      formRequest("/auth", { intent: "signin", email, password: PASSWORD, redirectTo: "/directory" }),
    );
    expect(result.status).toBe(302);
    expect(result.location).toBe("/directory");
    const cookie = cookieFrom(result.headers);
    expect((await getOptionalViewer(getRequest("/", cookie)))?.user.email).toBe(email);
  });

  it("shows the provider's message on a wrong password", async () => {
    const { email } = await createMember({ password: PASSWORD });
    const result = await signIn(email, "wrong password!");
    expect(result.status).toBe(400);
    expect(result.data).toMatchObject({ formError: "Invalid email or password", values: { intent: "signin" } });
  });

  it("never follows a redirect to another site", async () => {
    const { email } = await createMember({ password: PASSWORD });
    const result = await run(
      authAction,
      formRequest("/auth", { intent: "signin", email, password: PASSWORD, redirectTo: "//evil.example/" }),
    );
    expect(result.location).toBe("/");
  });

  it("slows down guessing: the sixth attempt in a minute from one address is refused, others only wait a moment", async () => {
    const { email } = await createMember({ password: PASSWORD });
    const ip = nextIp();
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await signIn(email, "wrong password!", ip)).status).toBe(400);
    }
    const blocked = await signIn(email, PASSWORD, ip);
    expect(blocked.status).toBe(429);
    expect(blocked.data).toMatchObject({ formError: "Too many attempts. Please wait a minute and try again." });
    // From elsewhere the account's own throttle applies: after five failures, a one-second wait.
    await expect.poll(async () => (await signIn(email, PASSWORD, nextIp())).status, { timeout: 5_000 }).toBe(302);
  });

  it("signs out: the session stops working", async () => {
    const { cookie } = await createMember();
    const result = await run(signOutAction, formRequest("/auth/sign-out", {}, { cookie }));
    expect(result.status).toBe(302);
    expect(result.location).toBe("/auth");
    expect(await getOptionalViewer(getRequest("/", cookie))).toBeNull();
  });
});

describe.skipIf(process.env.NAMECARD_TEST_DB !== "postgres")("a password reset's answer (PostgreSQL)", () => {
  it("comes without reading the accounts, so it cannot depend on whether one exists; the link is made after it", async () => {
    const { email } = await createMember({ password: PASSWORD });
    // Another transaction holds the accounts table: whatever reads it waits until it lets go.
    let letGo = () => {};
    const holding = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    let taken = () => {};
    const lockTaken = new Promise<void>((resolve) => {
      taken = resolve;
    });
    const holder = db.transaction(async (tx) => {
      await tx.execute(sql`lock table ${users} in access exclusive mode`);
      taken();
      await holding;
    });
    await lockTaken;
    try {
      const answered = await Promise.race([
        run(forgotAction, formRequest("/auth/forgot-password", { email })),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000)),
      ]);
      expect(answered?.data, "the answer waited for the accounts table").toEqual({ sent: email });
      expect(latestMail(email)).toBeNull();
    } finally {
      letGo();
      await holder;
    }
    // Once the table is free, the work after the answer makes the link and sends it.
    await mailSettled();
    expect(latestMail(email)?.subject).toBe("Reset your Namecard password");
  });
});

describe("resetting a forgotten password", () => {
  it("mails a link that sets a new password, after which only the new one works", async () => {
    const { email } = await createMember({ password: PASSWORD });
    const asked = await run(forgotAction, formRequest("/auth/forgot-password", { email }));
    expect(asked.data).toEqual({ sent: email });
    await mailSettled();

    const mail = latestMail(email);
    expect(mail?.subject).toBe("Reset your Namecard password");
    const link = new URL(mail!.link!);
    expect(link.pathname).toBe("/auth/reset-password");
    const token = link.searchParams.get("token");
    expect(token).toBeTruthy();

    const reset = await run(
      resetAction,
      formRequest("/auth/reset-password", {
        token: present(token, "a reset token"),
        password: "a brand new secret",
        confirmPassword: "a brand new secret",
      }),
    );
    expect(reset).toMatchObject({ status: 302, location: "/auth" });
    expect((await readToast(cookieFrom(reset.headers)))?.text).toBe(
      "Your password was changed. Sign in with your new password.",
    );
    expect((await signIn(email, PASSWORD)).status).toBe(400);
    expect((await signIn(email, "a brand new secret")).status).toBe(302);
  });

  it("answers the same for an unknown address, so accounts cannot be discovered", async () => {
    const email = uniqueEmail("nobody");
    const asked = await run(forgotAction, formRequest("/auth/forgot-password", { email }));
    expect(asked.data).toEqual({ sent: email });
    await mailSettled();
    expect(latestMail(email)).toBeNull();
  });
});

describe("administrators", () => {
  it("get an administrator card when they confirm their address", async () => {
    const cookie = await signUpAndVerify({ email: "admin@example.com", firstName: "Ada", lastName: "Admin" });
    const viewer = await getOptionalViewer(getRequest("/", cookie));
    expect(viewer?.isAdmin).toBe(true);
    expect(viewer?.role).toBe("admin");
    const profile = await profileByEmail("admin@example.com");
    expect(profile).toMatchObject({ username: "admin", bio: "System Administrator", viewCount: 0 });
  });

  it("have their card re-created when it is missing", async () => {
    const { cookie } = await createMember({ email: "admin@example.com", firstName: "Ada", lastName: "Admin" });
    await db.delete(profiles).where(sql`lower(${profiles.email}) = 'admin@example.com'`);
    const viewer = await getOptionalViewer(getRequest("/", cookie));
    expect(viewer?.profile?.username).toBe("admin");
  });
});
