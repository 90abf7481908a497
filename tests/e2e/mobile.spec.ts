import { expect, expectAccessible, screenshot, test } from "./fixtures";

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test("at phone width a member gets a bottom bar with Directory and Profile, and no sidebar", async ({
  page,
  login,
}) => {
  await login("member");
  await page.goto("/");
  const bar = page.locator("nav[aria-label='Main']:visible");
  await expect(bar).toHaveCount(1);
  await expect(bar.getByRole("link")).toHaveText(["Directory", "Profile"]);
  await expect(page.getByRole("complementary")).toBeHidden();
  await expectAccessible(page);
  await screenshot(page, "home-member-mobile-light");

  await page.getByRole("button", { name: "Account menu" }).click();
  await expect(page.getByRole("menuitem", { name: "View My Card" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign Out" })).toBeVisible();
});

test("at phone width an administrator gets four items: Dashboard, Directory, Brands, Analytics", async ({
  page,
  login,
}) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await login("admin");
  await page.goto("/");
  const bar = page.locator("nav[aria-label='Main']:visible");
  await expect(bar.getByRole("link")).toHaveText(["Dashboard", "Directory", "Brands", "Analytics"]);
  await expectAccessible(page);
  await screenshot(page, "home-admin-mobile-dark");

  // Profile management becomes one card per profile instead of a wide table.
  await page.goto("/admin/profiles?q=amelia");
  await expect(page.getByRole("table")).toBeHidden();
  await expect(page.getByRole("button", { name: "Edit Amelia Hart" })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "admin-profiles-mobile-dark");
});
