import type { Locator } from "@playwright/test";
import { expect, test } from "./fixtures";

/** A computed colour as [r, g, b], whatever colour space the browser reports it in. */
async function rgbOf(locator: Locator, property: "color" | "background-color") {
  return locator.evaluate((element, name) => {
    const value = getComputedStyle(element).getPropertyValue(name);
    const context = document.createElement("canvas").getContext("2d")!;
    context.fillStyle = value;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
    return [r, g, b] as [number, number, number];
  }, property);
}

function isRed([r, g, b]: [number, number, number]) {
  return r > 150 && g < 90 && b < 90;
}

test("delete buttons are red, in the brand cards, the profile table and the confirmation", async ({ page, login }) => {
  await login("admin");

  await page.goto("/admin/brands");
  const deleteBrand = page.getByRole("button", { name: /^Delete / }).first();
  await expect(deleteBrand).toBeVisible();
  expect(isRed(await rgbOf(deleteBrand, "color"))).toBe(true);

  await page.goto("/admin/profiles");
  // In a card's Actions menu, the last item.
  await page
    .getByRole("row")
    .getByRole("button", { name: /^Actions for / })
    .first()
    .click();
  const deleteProfile = page.getByRole("menuitem", { name: "Delete…" });
  await expect(deleteProfile).toBeVisible();
  expect(isRed(await rgbOf(deleteProfile, "color"))).toBe(true);

  await deleteProfile.click();
  const confirm = page.getByRole("alertdialog").getByRole("button", { name: "Delete Profile" });
  await expect(confirm).toBeVisible();
  expect(isRed(await rgbOf(confirm, "background-color"))).toBe(true);
  await page.getByRole("alertdialog").getByRole("button", { name: "Cancel" }).click();
});

test("a caller's padding wins over the button size's", async ({ page }) => {
  await page.goto("/profile/noah.fischer");
  // 'Download QR' is a medium button (16 px each side) narrowed by its caller to 12 px.
  const download = page.getByRole("link", { name: "Download QR" });
  await expect(download).toBeVisible();
  expect(await download.evaluate((element) => getComputedStyle(element).paddingLeft)).toBe("12px");
});

test("a page loads the @font-face rules of the chosen font family only", async ({ page }) => {
  const stylesheets: string[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "stylesheet") stylesheets.push(response.url());
  });
  await page.goto("/auth");
  await expect(page.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
  const families = await page.evaluate(() => {
    const found = new Set<string>();
    for (const sheet of Array.from(document.styleSheets)) {
      for (const rule of Array.from(sheet.cssRules)) {
        if (rule instanceof CSSFontFaceRule) found.add(rule.style.getPropertyValue("font-family").replaceAll('"', ""));
      }
    }
    return [...found];
  });
  // The default setting is Inter; the other five families never reach the page.
  expect(families).toEqual(["Inter Variable"]);
  expect(stylesheets.filter((url) => /\/assets\/(roboto|open-sans|lato|montserrat|poppins)-/.test(url))).toEqual([]);
});

test("whoever asks the system for less motion gets buttons without transitions", async ({ page }) => {
  await page.goto("/profile/noah.fischer");
  const download = page.getByRole("link", { name: "Download QR" });
  await expect(download).toBeVisible();
  const seconds = () => download.evaluate((element) => Number.parseFloat(getComputedStyle(element).transitionDuration));
  await page.emulateMedia({ reducedMotion: "no-preference" });
  expect(await seconds()).toBeGreaterThan(0.05);
  await page.emulateMedia({ reducedMotion: "reduce" });
  expect(await seconds()).toBeLessThan(0.001);
});
