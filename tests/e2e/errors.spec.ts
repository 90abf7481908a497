import { expect, expectAccessible, failedLoad, screenshot, test } from "./fixtures";

test.describe("at phone width", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("a failed save moves to a summary of every error, taken username included, whose entries lead to the fields", async ({
    page,
    login,
    expectConsoleError,
  }) => {
    expectConsoleError(failedLoad(400, "/profile/edit.data"));
    await login("member");
    await page.goto("/profile/edit");
    await page.getByLabel("Phone", { exact: true }).fill("call me");
    await page.getByLabel("Username").fill("amelia.hart");
    await page.getByRole("button", { name: "Save Changes" }).click();

    const summary = page.getByTestId("error-summary");
    await expect(summary).toBeFocused();
    await expect(summary).toBeInViewport();
    // Format and uniqueness in the same round.
    await expect(summary.getByRole("link")).toHaveText([
      "Username already exists. Please choose a different one.",
      "Enter a phone number such as +49 30 1234 5678 (digits, spaces, + ( ) -), and an extension as ext. 123",
    ]);
    await expectAccessible(page);
    await screenshot(page, "profile-edit-errors-mobile-light");

    await summary.getByRole("link", { name: /Enter a phone number/ }).click();
    await expect(page.getByLabel("Phone", { exact: true })).toBeFocused();
    await expect(page.getByLabel("Phone", { exact: true })).toBeInViewport();
  });
});

test("a failed Settings save keeps its messages and what was typed when a colleague changes something", async ({
  page,
  context,
  login,
  expectConsoleError,
}) => {
  expectConsoleError(failedLoad(400, "/admin/settings/branding.data"));
  await login("admin");
  for (const theme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.goto("/admin/settings/branding");
    await page.getByLabel("Accent colour", { exact: true }).fill("orange");
    await page.getByRole("button", { name: "Save Settings" }).click();

    // What to do, not what is wrong; where the summary leads is tests/component/settings.test.tsx's.
    const summary = page.getByTestId("error-summary");
    await expect(summary.getByRole("link")).toHaveText(["Use a hex colour such as #f97316"]);
    await screenshot(page, `settings-errors-desktop-${theme}`);

    if (theme === "light") {
      // A colleague's change reaches the page while it shows the failed save: the messages stay.
      const heard = Number((await page.locator("html").getAttribute("data-live-events")) ?? 0);
      const colleague = await context.newPage();
      await colleague.goto("/admin/brands");
      await colleague.getByRole("button", { name: "Add Brand" }).click();
      const theirs = colleague.getByRole("dialog", { name: "Add New Brand" });
      await theirs.getByLabel("Brand name").fill(`Settings Colleague ${Date.now()}`);
      await theirs.getByRole("button", { name: "Create Brand" }).click();
      await expect(colleague.getByText("Brand created successfully!")).toBeVisible();
      await expect
        .poll(async () => Number(await page.locator("html").getAttribute("data-live-events")))
        .toBeGreaterThan(heard);
      await expect(page.locator("html")).not.toHaveAttribute("data-live-pending");
      await colleague.close();
      await expect(summary.getByRole("link")).toHaveText(["Use a hex colour such as #f97316"]);
      await expect(page.getByLabel("Accent colour", { exact: true })).toHaveValue("orange");
    }
  }
  await expectAccessible(page);
});
