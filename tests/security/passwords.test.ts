import { describe, expect, it } from "vitest";
import { WEAK_PASSWORD } from "~/.server/accounts/password-strength";
import { mailSettled } from "~/.server/platform/mail";
import {
  FREE_SIGN_IN_FAILURES,
  MAX_SIGN_IN_DELAY_MS,
  recordSignInFailure,
  signInWait,
} from "~/.server/platform/throttle";
import { action as forgotAction } from "~/routes/auth/forgot-password";
import { action as resetAction } from "~/routes/auth/reset-password";
import { createMember, formRequest, latestMail, MEMBER_PASSWORD, run, uniqueEmail } from "../server/helpers";
import { newBrowser, signInWith, signUpIn } from "./accounts-support";

const COMMON = ["12345678", "password", "aaaaaaaa", "Password1", "qwertyuiop", "iloveyou123", "11111111"];

describe("guessable passwords are refused", () => {
  it.each(COMMON)("sign-up refuses %j under the password field, and creates nothing", async (password) => {
    const email = uniqueEmail("weak");
    const result = await signUpIn(newBrowser(), { email, password });
    expect(result).toMatchObject({ status: 400, data: { fieldErrors: { password: [WEAK_PASSWORD] } } });
    expect(latestMail(email)).toBeNull();
  });

  it("a password built from the person's own name is refused too", async () => {
    const result = await signUpIn(newBrowser(), {
      email: uniqueEmail("weak"),
      firstName: "Bartholomew",
      lastName: "Quinton",
      password: "bartholomew1",
    });
    expect(result.data).toMatchObject({ fieldErrors: { password: [WEAK_PASSWORD] } });
  });

  it.each(COMMON)("a password reset refuses %j, and the old password keeps working", async (password) => {
    const { email } = await createMember();
    await run(forgotAction, formRequest("/auth/forgot-password", { email }));
    await mailSettled();
    const token = new URL(latestMail(email)!.link!).searchParams.get("token")!;
    const reset = await run(
      resetAction,
      formRequest("/auth/reset-password", { token, password, confirmPassword: password }),
    );
    expect(reset).toMatchObject({ status: 400, data: { fieldErrors: { password: [WEAK_PASSWORD] } } });
    expect((await signInWith(email, MEMBER_PASSWORD)).status).toBe(302);
  });
});

describe("sign-in guessing is throttled per account, without locking the owner out for long", () => {
  it("the wait after the fifth failure doubles with each failure and never exceeds fifteen minutes", async () => {
    const email = uniqueEmail("throttle");
    const waits: number[] = [];
    for (let failures = 1; failures <= 30; failures++) {
      await recordSignInFailure(email);
      waits.push(await signInWait(email));
    }
    expect(waits.slice(0, FREE_SIGN_IN_FAILURES - 1).every((wait) => wait === 0)).toBe(true);
    expect(waits[FREE_SIGN_IN_FAILURES - 1]).toBeGreaterThan(0);
    expect(waits[FREE_SIGN_IN_FAILURES - 1]).toBeLessThanOrEqual(1_000);
    expect(waits[FREE_SIGN_IN_FAILURES + 2]).toBeGreaterThan(4_000);
    expect(Math.max(...waits)).toBeLessThanOrEqual(MAX_SIGN_IN_DELAY_MS);
    expect(waits.at(-1)).toBeGreaterThan(MAX_SIGN_IN_DELAY_MS - 5_000);
  });

  it("failures from many network addresses still slow the account: even the right password waits", async () => {
    const { email } = await createMember();
    // Each guess from a new address, as a botnet would: the per-address limit never triggers.
    // Past five failures each guess must wait its turn; seven failures leave a four-second wait.
    for (let failures = 0; failures < FREE_SIGN_IN_FAILURES + 2; failures++) {
      await expect
        .poll(async () => (await signInWith(email, `wrong guess ${failures}`)).status, { timeout: 10_000 })
        .toBe(400);
    }
    const owner = await signInWith(email, MEMBER_PASSWORD);
    expect(owner.status).toBe(429);
    expect(owner.data).toMatchObject({
      formError: expect.stringMatching(
        /^Too many failed sign-ins for this account\. Try again in \d+ (seconds|minutes?), or reset your password\.$/,
      ),
    });
  });

  it("the owner's own browser still gets in while strangers' guesses keep the account waiting; its own guesses count against it alone", async () => {
    const { email } = await createMember();
    const other = await createMember();
    // The owner signed in from this browser before: it keeps a signed cookie saying so, and nothing else.
    const owners = newBrowser();
    expect((await signInWith(email, MEMBER_PASSWORD, owners)).status).toBe(302);
    const known = owners.cookie.split("; ").filter((pair) => pair.includes("known_device"));
    expect(known).toHaveLength(1);
    const ownBrowser = () => ({ cookie: known.join("; "), ip: newBrowser().ip });

    // A stranger keeps guessing: the account waits everywhere else…
    for (let attempt = 0; attempt < 20; attempt++) await recordSignInFailure(email);
    expect((await signInWith(email, MEMBER_PASSWORD)).status).toBe(429);
    // …a cookie changed by hand speaks for nobody…
    const forged = known.join("; ").replace(/=(.)/, (_, first: string) => `=${first === "a" ? "b" : "a"}`);
    expect((await signInWith(email, MEMBER_PASSWORD, { cookie: forged, ip: newBrowser().ip })).status).toBe(429);
    // …and the cookie speaks for its own account only…
    for (let attempt = 0; attempt < 20; attempt++) await recordSignInFailure(other.email);
    expect((await signInWith(other.email, MEMBER_PASSWORD, ownBrowser())).status).toBe(429);
    // …but the owner's browser gets in (which lifts the account's wait, as any sign-in of the owner does).
    expect((await signInWith(email, MEMBER_PASSWORD, ownBrowser())).status).toBe(302);
    for (let attempt = 0; attempt < 20; attempt++) await recordSignInFailure(email);

    // Guesses from the owner's browser count against that browser: five, then it waits too.
    for (let failures = 0; failures < FREE_SIGN_IN_FAILURES; failures++) {
      await expect
        .poll(async () => (await signInWith(email, `wrong guess ${failures}`, ownBrowser())).status, {
          timeout: 10_000,
        })
        .toBe(400);
    }
    expect((await signInWith(email, MEMBER_PASSWORD, ownBrowser())).status).toBe(429);
  });

  it("a completed password reset lifts the wait at once", async () => {
    const { email } = await createMember();
    for (let attempt = 0; attempt < 20; attempt++) await recordSignInFailure(email);
    expect((await signInWith(email, MEMBER_PASSWORD)).status).toBe(429);

    await run(forgotAction, formRequest("/auth/forgot-password", { email }));
    await mailSettled();
    const token = new URL(latestMail(email)!.link!).searchParams.get("token")!;
    const reset = await run(
      resetAction,
      formRequest("/auth/reset-password", {
        token,
        password: "a fresh and long phrase",
        confirmPassword: "a fresh and long phrase",
      }),
    );
    expect(reset.status).toBe(302);
    expect((await signInWith(email, "a fresh and long phrase")).status).toBe(302);
  });

  it("an address without an account is throttled the same way, so the answer reveals no account", async () => {
    const email = uniqueEmail("nobody");
    for (let attempt = 0; attempt < 20; attempt++) await recordSignInFailure(email);
    const result = await signInWith(email, "any password at all");
    expect(result.status).toBe(429);
    expect(result.data).toMatchObject({
      formError: expect.stringContaining("Too many failed sign-ins for this account"),
    });
  });
});
