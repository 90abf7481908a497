import { expect, expectAccessible, screenshot, test } from "./fixtures";

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test("at phone width a member gets a bottom bar with what they came to do (their card, a colleague, sharing, leads), and no sidebar", async ({
  page,
  login,
}) => {
  await login("member");
  await page.goto("/");
  const bar = page.locator("nav[aria-label='Main']:visible");
  await expect(bar).toHaveCount(1);
  await expect(bar.getByRole("link")).toHaveText(["Home", "Directory", "Share", "Leads"]);
  await expect(bar.getByRole("link", { name: "Home" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("complementary")).toBeHidden();
  // Home holds the card's QR code, one tap from full screen.
  await expect(page.getByRole("img", { name: "Your card's QR code: opens it full screen" })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "home-member-mobile-light");
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, "home-member-mobile-dark");
  await page.emulateMedia({ colorScheme: "light" });

  // Each item stays inside the screen.
  const rights = await bar
    .getByRole("link")
    .evaluateAll((links) => links.map((link) => link.getBoundingClientRect().right));
  expect(Math.max(...rights)).toBeLessThanOrEqual(390);
  await bar.getByRole("link", { name: "Share" }).click();
  await expect(page).toHaveURL(/\/share$/);
  await bar.getByRole("link", { name: "Leads" }).click();
  await expect(page).toHaveURL(/\/leads$/);

  // Editing the card and the rest are in the account menu.
  await page.getByRole("button", { name: "Account menu" }).click();
  await expect(page.getByRole("menuitem", { name: "View My Card" })).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Edit Profile" })).toBeVisible();
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
  // The filters sit in one row that scrolls sideways: the first person is on the first screen.
  await expect(page.getByRole("button", { name: "Edit Amelia Hart" })).toBeInViewport();
  await expect(page.getByLabel("Invitation", { exact: true })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "admin-profiles-mobile-dark");
});

test("at phone width an administrator reaches every administrator screen, Settings included, from the navigation", async ({
  page,
  login,
}) => {
  await login("admin");
  for (const theme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.goto("/");
    const bar = page.locator("nav[aria-label='Main']:visible");
    await page.getByRole("button", { name: "Account menu" }).click();
    const menu = page.getByRole("menu");
    await expect(menu.getByRole("menuitem", { name: "Settings" })).toBeVisible();
    await expect(menu.getByRole("menuitem", { name: "Help" })).toBeVisible();
    // The menu stays on the screen.
    const box = await menu.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    await screenshot(page, `account-menu-admin-mobile-${theme}`);
    await page.keyboard.press("Escape");

    // Every destination of the wide screen's sidebar is one tap away on a phone.
    const reachable = [
      ...(await bar.getByRole("link").allTextContents()),
      ...(await (async () => {
        await page.getByRole("button", { name: "Account menu" }).click();
        const names = await page.getByRole("menu").getByRole("menuitem").allTextContents();
        await page.keyboard.press("Escape");
        return names;
      })()),
    ].map((name) => name.trim());
    for (const screen of ["Dashboard", "Directory", "Brands", "Analytics", "Settings", "Help"]) {
      expect(reachable, `${screen} from the phone navigation`).toContain(screen);
    }
  }

  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/admin\/settings\/general$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "admin-settings-mobile-dark");
});

test("on a phone the profile form says to tap for a photo and shows the card's real address", async ({
  page,
  login,
}) => {
  await login("member");
  await page.goto("/profile/edit");
  await expect(page.getByText("Tap to choose a photo")).toBeVisible();
  await expect(page.getByText("Drag and drop or click to browse")).toBeHidden();
  await expect(page.getByLabel("Tap to choose a photo")).toHaveAttribute("type", "file");
  const username = await page.getByLabel("Username").inputValue();
  await expect(page.getByText(`Your card's address: ${new URL(page.url()).origin}/profile/${username}`)).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "profile-edit-member-mobile-light");
});
