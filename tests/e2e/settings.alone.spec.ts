import { expect, expectAccessible, PEOPLE, saveSettings, screenshot, settingsTab, test } from "./fixtures";

test("settings apply across the product, each tab saving its own, and a cleared field returns to its default", async ({
  page,
  login,
  newContext,
}) => {
  await login("admin");
  // The one-page screen's addresses still open their tab.
  await page.goto("/admin/settings?tab=legal");
  await expect(page).toHaveURL(/\/admin\/settings\/legal$/);
  await page.goto("/admin/settings");
  await expect(page).toHaveURL(/\/admin\/settings\/general$/);
  await expect(settingsTab(page, "General")).toHaveAttribute("aria-current", "page");
  await expectAccessible(page);
  await page.getByLabel("Company name").fill("Acme Group");
  await saveSettings(page);

  await settingsTab(page, "Branding").click();
  await expect(page).toHaveURL(/\/admin\/settings\/branding$/);
  await page.getByLabel("Primary colour", { exact: true }).fill("#0f766e");
  await page.getByLabel("Font").selectOption("Poppins");
  await saveSettings(page);

  await settingsTab(page, "Legal & privacy").click();
  await page.getByLabel("Terms of service").fill("Be kind to each other.\nShare cards, not secrets.");
  await saveSettings(page);

  await settingsTab(page, "Security").click();
  await expect(page.getByText("Administrators are a role.")).toBeVisible();
  await expect(page.getByText(PEOPLE.admin.email)).toBeVisible();

  // Everywhere: the name, the colour, the font, the published terms.
  await expect(page.getByRole("link", { name: "Acme Group" }).first()).toBeVisible();
  const html = page.locator("html");
  await expect(html).toHaveAttribute("style", /--brand-primary:\s*#0f766e/);
  await expect(html).toHaveAttribute("style", /Poppins/);
  const visitor = await (await newContext()).newPage();
  await visitor.goto("/auth?mode=signup");
  await expect(visitor.getByRole("heading", { name: "Join Acme Group" })).toBeVisible();
  await visitor.getByRole("link", { name: "Terms of Service" }).first().click();
  await expect(visitor.getByRole("heading", { name: "Terms of Service" })).toBeVisible();
  await expect(visitor.getByText("Share cards, not secrets.")).toBeVisible();
  await visitor.goto("/qr/amelia.hart");
  await expect(visitor.getByText("Powered by Acme Group")).toBeVisible();
  await screenshot(visitor, "qr-after-settings");
  for (const tab of ["general", "branding", "legal", "invitations", "joining", "fields", "security"]) {
    await page.goto(`/admin/settings/${tab}`);
    for (const [width, height, device] of [
      [1440, 900, "desktop"],
      [390, 844, "phone"],
    ] as const) {
      await page.setViewportSize({ width, height });
      for (const theme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await screenshot(page, `admin-settings-${tab}-${device}-${theme}`);
      }
    }
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: "light" });

  // Clearing on purpose brings the defaults back.
  await settingsTab(page, "General").click();
  await page.getByLabel("Company name").fill("");
  await saveSettings(page);
  await expect(page.getByRole("link", { name: "Namecard" }).first()).toBeVisible();
  await settingsTab(page, "Legal & privacy").click();
  await page.getByLabel("Terms of service").fill("");
  await saveSettings(page);
  const gone = await page.request.get("/terms");
  expect(gone.status()).toBe(404);
});
