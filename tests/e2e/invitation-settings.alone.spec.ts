import { expect, expectAccessible, screenshot, settingsTab, test } from "./fixtures";

// The form's own behaviour (its message for a bad number, Saving...) is tests/component/settings.test.tsx's.
test("an administrator switches automatic reminders on in Settings, and they are kept", async ({ page, login }) => {
  await login("admin");
  await page.goto("/admin/settings");
  await settingsTab(page, "Invitations").click();
  const after = page.getByLabel("Remind after (days)");
  await expect(after).toHaveValue("7");
  await expect(page.getByLabel("Reminders at most")).toHaveValue("3");
  await expectAccessible(page);
  await page.getByLabel("Send reminders automatically").check();
  await page.getByLabel("Remind after (days)").fill("10");
  await page.getByRole("button", { name: "Save Settings" }).click();
  await expect(page.getByText("Settings saved successfully!")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Send reminders automatically")).toBeChecked();
  await expect(page.getByLabel("Remind after (days)")).toHaveValue("10");
  for (const [width, height, device] of [
    [1440, 900, "desktop"],
    [390, 844, "phone"],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await screenshot(page, `settings-invitations-${device}-${theme}`);
    }
  }

  // Back to the default, so no other test meets reminders switched on.
  await page.getByLabel("Send reminders automatically").uncheck();
  await page.getByRole("button", { name: "Save Settings" }).click();
  await expect(page.getByText("Settings saved successfully!")).toBeVisible();
});
