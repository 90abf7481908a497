import type { Page } from "@playwright/test";
import { expect, expectAccessible, failedLoad, mailLink, PASSWORD, screenshot, test, uniqueEmail } from "./fixtures";

const SIZES = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

/** Every CSP refusal the page reports, so a script without the nonce fails the test. */
function watchPolicy(page: Page) {
  const refusals: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) refusals.push(message.text());
  });
  return refusals;
}

async function fillSignUp(page: Page, email: string) {
  await page.getByLabel("First name").fill("Grace");
  await page.getByLabel("Last name").fill("Hopper");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
}

// The page policy does not depend on the width or the colours: the boot script is seen to follow
// the device at each width and scheme once, and the journey runs once, on a phone in dark mode.
test("sign-up, check-your-email and confirmation pages work under the page policy (desktop light, then phone dark)", async ({
  page,
  browser,
}) => {
  const refusals = watchPolicy(page);
  await page.setViewportSize(SIZES[0]);
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/auth?mode=signup");
  await expect(page.getByRole("heading", { name: "Join Namecard" })).toBeVisible();
  // The theme boot script ran (it carries the nonce): the dark class follows the device.
  await expect(page.locator("html")).toHaveClass(/^(?!.*dark)/);
  await screenshot(page, "security-signup-desktop-light");

  const size = SIZES[1];
  const scheme = "dark";
  await page.setViewportSize(size);
  await page.emulateMedia({ colorScheme: scheme });
  const email = uniqueEmail(`screens-${size.name}-${scheme}`);

  await page.goto("/auth?mode=signup");
  await expect(page.getByRole("heading", { name: "Join Namecard" })).toBeVisible();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await screenshot(page, `security-signup-${size.name}-${scheme}`);

  await fillSignUp(page, email);
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expectAccessible(page);
  const firstLink = await mailLink(email);

  await page.getByRole("button", { name: "Send the link again" }).click();
  await expect(page.getByText("We sent a new link. Links we sent before it no longer work.")).toBeVisible();
  await screenshot(page, `security-check-email-${size.name}-${scheme}`);
  await expect.poll(() => mailLink(email)).not.toBe(firstLink);

  await page.getByRole("button", { name: "Change the address" }).click();
  await expect(page.getByRole("heading", { name: "Join Namecard" })).toBeVisible();
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue(email);
  await expect(page.getByLabel("First name")).toHaveValue("Grace");

  // The newest link, opened on another device: it asks for the password instead of using the pending one.
  const other = await browser.newContext({ viewport: size, colorScheme: scheme });
  const phone = await other.newPage();
  const otherRefusals = watchPolicy(phone);
  await phone.goto(await mailLink(email));
  await expect(phone.getByRole("heading", { name: "Finish joining Namecard" })).toBeVisible();
  await expect(phone.getByLabel("First name")).toHaveValue("Grace");
  await expectAccessible(phone);
  await screenshot(phone, `security-confirm-${size.name}-${scheme}`);
  await phone.getByLabel("Password", { exact: true }).fill("my own fresh phrase");
  await phone.getByRole("button", { name: "Confirm and sign in" }).click();
  await expect(phone).toHaveURL(/\/$/);
  await expect(phone.getByRole("heading", { name: "Welcome, Grace!" })).toBeVisible();

  // The first link no longer works anywhere.
  await page.goto(firstLink);
  await expect(page.getByRole("heading", { name: "This link did not work" })).toBeVisible();
  await screenshot(page, `security-link-failed-${size.name}-${scheme}`);
  await other.close();
  expect([...refusals, ...otherRefusals]).toEqual([]);
});

test("the password reset page asks for a new password and refuses a common one", async ({
  page,
  expectConsoleError,
}) => {
  const email = uniqueEmail("reset-screens");
  await page.goto("/auth?mode=signup");
  await fillSignUp(page, email);
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  // Opened in the browser that signed up: the address is confirmed and the member signed in.
  await page.goto(await mailLink(email));
  await expect(page).toHaveURL(/\/$/);
  // The page has opened its live-update stream (with the session) before the cookies go:
  // a stream asked for afterwards would be refused (401), which the browser logs.
  await expect(page.locator("html")).toHaveAttribute("data-live", "connected");
  await page.context().clearCookies();
  await page.goto("/auth/forgot-password");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  let link = "";
  await expect
    .poll(async () => {
      link = await mailLink(email);
      return link.includes("/auth/reset-password");
    })
    .toBe(true);
  // The refused password comes back as a 400, which the browser logs.
  expectConsoleError(failedLoad(400, `/auth/reset-password.data${new URL(link).search}`));
  for (const size of SIZES) {
    for (const scheme of ["light", "dark"] as const) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(link);
      await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
      await page.getByLabel("New password", { exact: true }).fill("password");
      await page.getByLabel("Confirm new password").fill("password");
      await page.getByRole("button", { name: "Save new password" }).click();
      await expect(page.getByText(/too common or too easy to guess/)).toBeVisible();
      await screenshot(page, `security-reset-${size.name}-${scheme}`);
    }
  }
});
