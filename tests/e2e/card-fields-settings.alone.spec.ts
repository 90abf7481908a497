import { expect, test } from "./fixtures";

test("an administrator locks pronouns to colleagues, and a member's form shows it set by the company", async ({
  page,
  login,
}) => {
  await login("admin");
  await page.goto("/admin/settings/fields");
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
  await page.goto("/admin/settings/fields");
  await page.getByLabel("Pronouns visibility").selectOption("public");
  await page.getByLabel("Lock Pronouns").uncheck();
  await page.getByRole("button", { name: "Save Settings" }).click();
  await expect(page.getByText("Settings saved successfully!")).toBeVisible();
});
