import { expect, expectAccessible, screenshot, test } from "./fixtures";

/**
 * "Share my card": a member reaches it from home and from their card, sees
 * their link and QR code, their e-mail signature as mail programs show it
 * (and copies it), and their video-call background, on a desktop and a phone.
 */

test("a member finds every way to hand out their card on one page, and copies their e-mail signature", async ({
  page,
  login,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const member = await login("member");
  await page.goto("/");
  await page.getByRole("link", { name: /Share My Card/ }).click();
  await expect(page.getByRole("heading", { name: "Share my card", level: 1 })).toBeVisible();
  await expect(page.getByLabel("Your card's address")).toHaveValue(/\/profile\/mia\.member$/);
  const signature = page.frameLocator('iframe[title="Your e-mail signature, as mail programs show it"]');
  await expect(signature.getByText(`${member.firstName} ${member.lastName}`)).toBeVisible();
  await page.getByRole("button", { name: "Copy signature" }).click();
  await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();
  const copied = await page.evaluate(async () => {
    const [item] = await navigator.clipboard.read();
    return item ? await (await item.getType("text/html")).text() : "";
  });
  expect(copied).toMatch(/^<table/);
  // How to keep the card on the phone's home screen, for each kind of phone, and the card to open first.
  const homeScreen = page.getByRole("region", { name: "On your phone, without a network" });
  await expect(homeScreen.getByRole("heading", { name: "iPhone and iPad (Safari)" })).toBeVisible();
  await expect(homeScreen.getByText(/then Add to Home Screen/)).toBeVisible();
  await expect(homeScreen.getByRole("heading", { name: "Android (Chrome)" })).toBeVisible();
  await expect(homeScreen.getByRole("link", { name: "Open my card" })).toHaveAttribute("href", "/profile/mia.member");
  await expect(page.getByRole("img", { name: "Your video-call background" })).toBeVisible();
  await expect
    .poll(() =>
      page
        .getByRole("img", { name: "Your video-call background" })
        .evaluate((img: HTMLImageElement) => img.naturalWidth),
    )
    .toBe(1280);
  await expectAccessible(page);
  await screenshot(page, "share-desktop-light");
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize({ width: 390, height: 844 });
  // As a phone opens it.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Share my card", level: 1 })).toBeVisible();
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, "the page's width on a phone").toBeLessThanOrEqual(innerWidth);
  await screenshot(page, "share-phone-dark");
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: "light" });

  // From the card itself.
  await page.goto("/profile/mia.member");
  await page.getByRole("link", { name: /Share my card/ }).click();
  await expect(page).toHaveURL(/\/share$/);
});
