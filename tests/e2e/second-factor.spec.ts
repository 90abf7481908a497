import type { Page } from "@playwright/test";
import { totpCode } from "../support/totp";
import {
  expect,
  expectAccessible,
  failedLoad,
  mailLink,
  PASSWORD,
  screenshot,
  signIn,
  switchScheme,
  test,
  uniqueEmail,
} from "./fixtures";

/**
 * A member protects their account with a second step: an authenticator app
 * (its codes made here as a phone's app makes them, RFC 6238) and a passkey in
 * Chromium's virtual authenticator, which unlocks like a fingerprint reader.
 * Each test signs up an account of its own, whose factors nobody else meets.
 */

async function joinAs(page: Page, firstName: string): Promise<string> {
  const email = uniqueEmail(firstName.toLowerCase());
  await page.goto("/auth?mode=signup");
  await page.getByLabel("First name").fill(firstName);
  await page.getByLabel("Last name").fill("Secure");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  await page.goto(await mailLink(email));
  await expect(page.getByRole("heading", { name: `Welcome, ${firstName}!` })).toBeVisible();
  return email;
}

/** Signs out as the menu's button does (a plain POST form), whichever layout the screen has. */
async function signOut(page: Page) {
  await page.evaluate(() => {
    const form = document.createElement("form");
    form.method = "post";
    form.action = "/auth/sign-out";
    document.body.append(form);
    form.submit();
  });
  await expect(page).toHaveURL(/\/auth$/);
}

/** A platform authenticator that holds passkeys and verifies its user, as a phone's fingerprint reader does. */
async function addFingerprintReader(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

test("a member turns on an authenticator app, keeps the recovery codes, and the next password sign-in asks for the app's code", async ({
  page,
  expectConsoleError,
}) => {
  test.slow();
  // The wrong code's answer is a 400, which Chromium reports.
  expectConsoleError(failedLoad(400, "/auth/two-factor.data"));
  const email = await joinAs(page, "Tess");
  await page.getByRole("link", { name: "Security" }).first().click();
  await expect(page.getByRole("heading", { name: "Sign-in and security" })).toBeVisible();
  await page.getByRole("region", { name: "Authenticator app" }).getByLabel("Your password").fill(PASSWORD);
  await page.getByRole("button", { name: "Set up" }).click();

  await expect(page.getByRole("img", { name: "QR code to add Namecard to your authenticator app" })).toBeVisible();
  const codes = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await expect(codes).toHaveCount(10);
  const recovery = (await codes.first().textContent()) ?? "";
  const uri = await page.locator('input[name="uri"]').inputValue();
  await expectAccessible(page);
  await screenshot(page, "security-app-setup-desktop-light");
  await page.getByLabel("Code from the app").fill(totpCode(uri));
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByText("Your authenticator app is on.")).toBeVisible();
  await expect(page.getByText(/Sign-ins with your password ask for the code your app shows/)).toBeVisible();
  await switchScheme(page, "dark");
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, "security-page-phone-dark");
  await switchScheme(page, "light");
  await page.setViewportSize({ width: 1280, height: 720 });

  await signOut(page);
  await signIn(page, email);
  await expect(page.getByRole("heading", { name: "Second step" })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "sign-in-second-step-desktop-light");
  await page.getByLabel("Code", { exact: true }).fill("000000" === totpCode(uri) ? "111111" : "000000");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("That code is not right. Enter the 6 digits your app shows now.")).toBeVisible();
  await page.getByLabel("Code", { exact: true }).fill(totpCode(uri));
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "Welcome back, Tess!" })).toBeVisible();

  // A lost phone: a recovery code instead, once.
  await signOut(page);
  await signIn(page, email);
  await page.getByRole("link", { name: "Lost your phone? Use a recovery code" }).click();
  await page.getByLabel("Recovery code").fill(recovery.toUpperCase());
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "Welcome back, Tess!" })).toBeVisible();
});

test("a member adds a passkey and signs in with it alone, on a phone", async ({ page, expectConsoleError }) => {
  test.slow();
  // The removed passkey's sign-in is refused with a 401, which Chromium reports.
  expectConsoleError(failedLoad(401, "/api/auth/passkey/verify-authentication"));
  await page.setViewportSize({ width: 390, height: 844 });
  await joinAs(page, "Pia");
  await addFingerprintReader(page);
  await page.goto("/account/security");
  const passkeys = page.getByRole("region", { name: "Passkeys" });
  await passkeys.getByLabel("Your password").fill(PASSWORD);
  await passkeys.getByLabel("Name (optional)").fill("Pia's phone");
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByText("Pia's phone")).toBeVisible();
  await expect(page.getByRole("button", { name: "Remove Pia's phone" })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "security-passkeys-phone-light");

  await signOut(page);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByRole("heading", { name: "Welcome back, Pia!" })).toBeVisible();

  // Removed here, the passkey signs nobody in, though the device still offers it.
  await page.goto("/account/security");
  await page.getByRole("button", { name: "Remove Pia's phone" }).click();
  await expect(page.getByText("The passkey was removed.")).toBeVisible();
  await signOut(page);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByText(/That passkey is not one of this site's/)).toBeVisible();
});
