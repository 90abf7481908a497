import type { Locator, Page } from "@playwright/test";
import sharp from "sharp";
import { contrast, styleOf } from "./contrast";
import { expect, expectAccessible, screenshot, test } from "./fixtures";
import { BRAND_CARDS } from "./people";

const THEMES = ["light", "dark"] as const;

/** Text on a fill: WCAG AA. */
async function expectReadable(text: Locator, background: Locator | string, what: string) {
  const color = await styleOf(text, "color");
  const fill = typeof background === "string" ? background : await styleOf(background, "background-color");
  expect(contrast(color, fill), `${what}: ${color} on ${fill}`).toBeGreaterThanOrEqual(4.5);
}

/** Text on a gradient: AA against both of its ends. */
async function expectReadableOnGradient(text: Locator, gradient: Locator, what: string) {
  for (const end of ["--from", "--to"]) await expectReadable(text, await styleOf(gradient, end), `${what} (${end})`);
}

async function cardSurface(page: Page) {
  return styleOf(page.getByRole("article").first(), "background-color");
}

for (const { brand, person } of Object.values(BRAND_CARDS)) {
  for (const theme of THEMES) {
    test(`the ${brand.name} card (${brand.primaryColor}) wears its brand and every pair reads at AA in ${theme} mode`, async ({
      page,
      login,
    }) => {
      await page.emulateMedia({ colorScheme: theme });
      await page.goto(`/profile/${person.username}`);
      const article = page.getByRole("article");
      const surface = await cardSurface(page);
      const banner = page.getByTestId("card-banner");

      // The banner is the brand's, not the site's.
      const from = await styleOf(banner, "--from");
      expect(
        contrast(from, brand.primaryColor),
        `the banner starts in ${brand.primaryColor}, not ${from}`,
      ).toBeLessThan(2);

      await expectReadableOnGradient(article.getByTestId("avatar"), banner, "initials on the avatar");
      const save = page.getByRole("link", { name: "Save Contact" });
      await expectReadable(save, save, "Save Contact");
      const saveFill = await styleOf(save, "background-color");
      expect(contrast(saveFill, surface), `Save Contact ${saveFill} seen on ${surface}`).toBeGreaterThanOrEqual(3);
      expect(contrast(saveFill, brand.primaryColor), "Save Contact in the brand's colour").toBeLessThan(3.5);
      const tile = page.getByTestId("icon-tile").first();
      await expectReadable(tile, tile, "contact icon on its tile");
      await expectReadable(tile, surface, "contact icon on the card");
      const dot = article.getByTestId("brand-dot");
      const chip = dot.locator("..");
      const dotFill = await styleOf(dot, "background-color");
      expect(contrast(dotFill, await styleOf(chip, "background-color")), `brand dot ${dotFill}`).toBeGreaterThanOrEqual(
        3,
      );
      await expectAccessible(page);

      await page.goto(`/qr/${person.username}`);
      const qrBanner = page.getByTestId("card-banner");
      await expectReadableOnGradient(page.getByRole("heading", { level: 1 }), qrBanner, "name on the QR banner");
      await expectReadableOnGradient(
        qrBanner.getByText(person.title, { exact: true }),
        qrBanner,
        "title on the QR banner",
      );
      await expectAccessible(page);

      await login("member");
      await page.goto(`/directory?q=${encodeURIComponent(person.lastName)}`);
      const tileCard = page.getByRole("article").filter({ hasText: `${person.firstName} ${person.lastName}` });
      await expect(tileCard).toHaveCount(1);
      await expectReadableOnGradient(
        tileCard.getByTestId("avatar"),
        tileCard.getByTestId("avatar"),
        "directory initials",
      );
      const tileDot = tileCard.getByTestId("brand-dot");
      expect(
        contrast(await styleOf(tileDot, "background-color"), await styleOf(tileDot.locator(".."), "background-color")),
      ).toBeGreaterThanOrEqual(3);
    });
  }
}

test("the brand's logo is on the card and on the QR page, inside the banner at phone and desktop width", async ({
  page,
  login,
}, testInfo) => {
  test.slow();
  const { brand, person } = BRAND_CARDS.saffron;
  await login("admin");
  await page.goto("/admin/brands");
  await page.getByRole("button", { name: `Edit ${brand.name}` }).click();
  const dialog = page.getByRole("dialog", { name: "Edit Brand" });
  const logo = testInfo.outputPath("saffron-logo.png");
  await sharp({ create: { width: 240, height: 80, channels: 3, background: "#b45309" } })
    .png()
    .toFile(logo);
  await dialog.locator('input[name="logo"]').setInputFiles(logo);
  await dialog.getByRole("button", { name: "Update Brand" }).click();
  await expect(page.getByText("Brand updated successfully!")).toBeVisible();

  for (const [width, height, device] of [
    [390, 844, "phone"],
    [1440, 900, "desktop"],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      await page.goto(`/profile/${person.username}`);
      const banner = page.getByTestId("card-banner");
      const image = banner.getByRole("img", { name: `${brand.name} logo` });
      await expect(image).toBeVisible();
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
      const [logoBox, bannerBox] = [await image.boundingBox(), await banner.boundingBox()];
      expect(logoBox && bannerBox).toBeTruthy();
      if (logoBox && bannerBox) {
        expect(logoBox.x).toBeGreaterThanOrEqual(bannerBox.x);
        expect(logoBox.x + logoBox.width).toBeLessThanOrEqual(bannerBox.x + bannerBox.width);
        expect(logoBox.y + logoBox.height).toBeLessThanOrEqual(bannerBox.y + bannerBox.height);
      }
      await screenshot(page, `card-brand-saffron-${device}-${theme}`);

      await page.goto(`/qr/${person.username}`);
      await expect(page.getByTestId("card-banner").getByRole("img", { name: brand.name })).toBeVisible();
      await screenshot(page, `qr-brand-saffron-${device}-${theme}`);
    }
  }
  await expectAccessible(page);

  // The near-black brand, for the eye: no logo, dark text surfaces.
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    await page.goto(`/profile/${BRAND_CARDS.onyx.person.username}`);
    await screenshot(page, `card-brand-onyx-desktop-${theme}`);
  }
});
