import { expect, screenshot, test } from "./fixtures";

/** Records whether <html> was dark at the first moment the document was parsed. */
async function recordFirstPaintTheme(page: import("@playwright/test").Page) {
  await page.addInitScript(() => {
    document.addEventListener("DOMContentLoaded", () => {
      (window as unknown as { __darkAtLoad: boolean }).__darkAtLoad =
        document.documentElement.classList.contains("dark");
    });
  });
}

test("the chosen theme is kept across reloads, with no flash of the other one", async ({ page, login }) => {
  await login("admin");
  await page.goto("/");
  await recordFirstPaintTheme(page);

  await page.getByRole("button", { name: /^Theme:/ }).click();
  await page.getByRole("menuitemradio", { name: "Dark" }).click();
  await expect(page.locator("html")).toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");

  await page.reload();
  await expect(page.locator("html")).toHaveClass(/dark/);
  expect(await page.evaluate(() => (window as unknown as { __darkAtLoad: boolean }).__darkAtLoad)).toBe(true);
  await screenshot(page, "home-admin-desktop-dark");

  await page.getByRole("button", { name: /^Theme:/ }).click();
  await page.getByRole("menuitemradio", { name: "Light" }).click();
  await page.reload();
  await expect(page.locator("html")).not.toHaveClass(/dark/);
  expect(await page.evaluate(() => (window as unknown as { __darkAtLoad: boolean }).__darkAtLoad)).toBe(false);
});

test("System follows the device's preference live", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/auth");
  await expect(page.locator("html")).not.toHaveClass(/dark/);
  await page.getByRole("button", { name: /^Theme:/ }).click();
  await page.getByRole("menuitemradio", { name: "System" }).click();
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(page.locator("html")).toHaveClass(/dark/);
  await screenshot(page, "auth-signin-desktop-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await expect(page.locator("html")).not.toHaveClass(/dark/);
});
