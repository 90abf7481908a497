import { expect, expectAccessible, screenshot, test } from "./fixtures";

for (const [name, viewport] of [
  ["desktop", { width: 1280, height: 900 }],
  ["mobile", { width: 390, height: 844 }],
] as const) {
  for (const scheme of ["light", "dark"] as const) {
    test(`the Card fields tab sets who sees each field and locks it, on ${name} in ${scheme} mode`, async ({
      page,
      login,
    }) => {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      await login("admin");
      await page.goto("/admin/settings?tab=fields");
      await expect(page.getByRole("tab", { name: "Card fields" })).toHaveAttribute("aria-selected", "true");
      await expect(page.getByLabel("Office visibility").locator("option")).toHaveCount(2);
      await expect(page.getByLabel("Bio visibility").locator("option")).toHaveCount(3);
      await expectAccessible(page);
      await screenshot(page, `card-fields-settings-${name}-${scheme}`);
    });
  }
}

test("an administrator locks pronouns to colleagues, and a member's form shows it set by the company", async ({
  page,
  login,
}) => {
  await login("admin");
  await page.goto("/admin/settings?tab=fields");
  await page.getByLabel("Pronouns visibility").selectOption("colleagues");
  await page.getByLabel("Lock Pronouns").check();
  await page.getByRole("button", { name: "Save Settings" }).click();
  await expect(page.getByText("Settings saved successfully!")).toBeVisible();

  await login("member", { fresh: true });
  await page.goto("/profile/edit");
  await expect(page.getByText("Colleagues · set by your company")).toBeVisible();
  await expect(page.getByLabel("Pronouns", { exact: true })).toHaveAttribute("readonly", "");

  // Back as it was, for the tests after this one.
  await login("admin", { fresh: true });
  await page.goto("/admin/settings?tab=fields");
  await page.getByLabel("Pronouns visibility").selectOption("public");
  await page.getByLabel("Lock Pronouns").uncheck();
  await page.getByRole("button", { name: "Save Settings" }).click();
  await expect(page.getByText("Settings saved successfully!")).toBeVisible();
});
