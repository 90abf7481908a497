import {
  expect,
  expectAccessible,
  failedLoad,
  mailLink,
  PASSWORD,
  PEOPLE,
  screenshot,
  signIn,
  switchScheme,
  test,
  uniqueEmail,
} from "./fixtures";

test("a newcomer signs up, confirms through the emailed link and lands on their home", async ({ page }) => {
  const email = uniqueEmail("newcomer");
  await page.goto("/auth");
  await expect(page.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole("link", { name: "Sign up" }).click();
  await expect(page.getByRole("heading", { name: "Join Namecard" })).toBeVisible();
  await expect(
    page.getByText("At least 8 characters, hard to guess: a few unrelated words work well", { exact: false }),
  ).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "auth-signup-desktop-light");

  await page.getByLabel("First name").fill("Grace");
  await page.getByLabel("Last name").fill("Hopper");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Phone (optional)").fill("+1 555 0100");
  await page.getByRole("button", { name: "Create account" }).click();

  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expectAccessible(page);

  await page.goto(await mailLink(email));
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { name: "Welcome, Grace!" })).toBeVisible();
  for (const card of ["Edit Profile", "View My Card", "Browse Directory"]) {
    await expect(page.getByRole("main").getByRole("link", { name: new RegExp(card) })).toBeVisible();
  }
  await expect(page.getByRole("link", { name: /View My Card/ })).toHaveAttribute("href", "/profile/grace.hopper");
  // No views yet: neither views nor rank are shown on the home page.
  await expect(page.getByText(/views?$/)).toHaveCount(0);
  // The card's QR code at hand, and what is left to fill in.
  await expect(page.getByRole("heading", { name: "Share your card" })).toBeVisible();
  await expect(page.getByRole("img", { name: /Your card's QR code/ })).toBeVisible();
  await expect(page.getByRole("link", { name: "Add a photo" })).toHaveAttribute("href", "/profile/edit");
  await expectAccessible(page);
  await screenshot(page, "home-member-desktop-light");
  await switchScheme(page, "dark");
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, "home-member-phone-dark");
  await switchScheme(page, "light");
  await page.setViewportSize({ width: 1280, height: 720 });

  // Signed in again later: welcomed back.
  await page.context().clearCookies();
  await page.goto("/auth");
  await signIn(page, email);
  await expect(page.getByRole("heading", { name: "Welcome back, Grace!" })).toBeVisible();
});

test("a wrong password shows the provider's message in a red banner", async ({ page, expectConsoleError }) => {
  expectConsoleError(failedLoad(400, "/auth.data"));
  await page.goto("/auth");
  await signIn(page, PEOPLE.member.email, "not the password");
  const banner = page.getByRole("alert");
  await expect(banner).toHaveText("Invalid email or password");
  await expect(banner).toHaveClass(/text-red-800/);
  await expectAccessible(page);
  await screenshot(page, "auth-error-desktop-light");
});

test("a member signs up with the address of a prepared card and owns that card", async ({ page }) => {
  // Seeded unclaimed card: Nora Lindqvist, Brand Strategist.
  const email = "nora.lindqvist@demo.namecard.test";
  await page.goto("/auth?mode=signup");
  await page.getByLabel("First name").fill("Nora");
  await page.getByLabel("Last name").fill("Lindqvist");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();

  await page.goto(await mailLink(email));
  // Welcomed as new, and told the card was made ready for them.
  await expect(page.getByRole("heading", { name: "Welcome, Nora!" })).toBeVisible();
  await expect(page.getByText("Your card was prepared for you before you joined, and it is yours now.")).toBeVisible();
  await page.getByRole("link", { name: /View My Card/ }).click();
  await expect(page).toHaveURL(/\/profile\/nora\.lindqvist$/);
  await expect(page.getByText("Brand Strategist")).toBeVisible();
});

test("forgot password: the emailed link sets a new password that signs in", async ({ page }) => {
  const { email } = PEOPLE.forgetful;
  await page.goto("/auth");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page.getByRole("heading", { name: "Forgot password?" })).toBeVisible();
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();

  await expect.poll(async () => (await mailLink(email)).includes("reset-password")).toBe(true);
  await page.goto(await mailLink(email));
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await page.getByLabel("New password", { exact: true }).fill("another secret 456");
  await page.getByLabel("Confirm new password").fill("another secret 456");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.getByText("Your password was changed.")).toBeVisible();
  await signIn(page, email, "another secret 456");
  await expect(page.getByRole("heading", { name: /^Welcome( back)?, Fay!$/ })).toBeVisible();
});
