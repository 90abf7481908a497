import { expect, expectAccessible, failedLoad, screenshot, settingsTab, test } from "./fixtures";
import { COMPANY_DOMAINS, OUTSIDER } from "./people";

// Changes who is active, which other files' pages would show: runs with the settings files, last.

test("a stranger from outside the company is told why they cannot join, and gets no account", async ({
  page,
  expectConsoleError,
}) => {
  expectConsoleError(failedLoad(400, "/auth.data?mode=signup"));
  await page.goto("/auth?mode=signup");
  await page.getByLabel("First name").fill("Mallory");
  await page.getByLabel("Last name").fill("Stranger");
  await page.getByLabel("Email", { exact: true }).fill("mallory@gmail.example");
  await page.getByLabel("Password", { exact: true }).fill("a long stranger passphrase");
  await page.getByRole("button", { name: "Create account" }).click();
  const message = `Only people with an address at ${COMPANY_DOMAINS.join(" or ")} can join. Sign up with your work address, or ask an administrator to invite you.`;
  await expect(page.getByText(message).first()).toBeVisible();
  await expect(page.getByRole("heading", { name: "Check your email" })).toHaveCount(0);
  await expect(page.getByLabel("Email", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await screenshot(page, "who-can-join-refused-sign-up");
});

test("the administrator sees who can join and who is outside it, and deactivates those outside in one step", async ({
  page,
  login,
}) => {
  test.slow();
  await login("admin");
  await page.goto("/admin/settings/joining");
  await expect(settingsTab(page, "Who can join")).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("radio", { name: "People with an address at these domains" })).toBeChecked();
  await expect(page.getByRole("textbox", { name: "Domains" })).toHaveValue(COMPANY_DOMAINS.join("\n"));
  await expect(page.getByRole("heading", { name: "1 person who joined is outside the saved rule" })).toBeVisible();
  await expect(page.getByRole("cell", { name: OUTSIDER.email })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "who-can-join-desktop-light");

  // The warning before opening to anyone, and the confirmation's wording, are tests/component/settings.test.tsx's.
  await page.getByRole("button", { name: "Deactivate these 1 account" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Deactivate 1 account" }).click();
  await expect(
    page.getByText("1 account was deactivated: they are signed out and their card is hidden."),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/settings\/joining$/);
  await expect(page.getByRole("heading", { name: /outside the saved rule/ })).toHaveCount(0);
  const card = await page.request.get("/profile/oscar.outsider", { maxRedirects: 0 });
  expect(card.status()).toBe(410);
});

for (const [name, viewport] of [
  ["desktop", { width: 1280, height: 900 }],
  ["mobile", { width: 390, height: 844 }],
] as const) {
  for (const scheme of ["light", "dark"] as const) {
    test(`the Who can join tab reads well on ${name} in ${scheme} mode`, async ({ page, login }) => {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      await login("admin");
      await page.goto("/admin/settings/joining");
      await page.getByRole("radio", { name: "Anyone who has the link" }).check();
      await expect(page.getByText(/Anyone on the internet who finds the sign-up page/)).toBeVisible();
      await screenshot(page, `who-can-join-${name}-${scheme}`);
    });
  }
}
