import type { Locator, Page } from "@playwright/test";
import sharp from "sharp";
import { expect, expectAccessible, failedLoad, PEOPLE, saveSettings, screenshot, settingsTab, test } from "./fixtures";

/** A logo-like picture (a mark and a bar of "text") in `color` on a transparent background. */
async function logoFile(name: string, color: string, width = 600, height = 160) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect x="0" y="${height / 4}" width="${height / 2}" height="${height / 2}" rx="${height / 8}" fill="${color}"/>
    <rect x="${height * 0.7}" y="${height * 0.38}" width="${width - height * 0.8}" height="${height * 0.24}" rx="${height * 0.1}" fill="${color}"/>
  </svg>`;
  return { name, mimeType: "image/png", buffer: await sharp(Buffer.from(svg)).png().toBuffer() };
}

/** The site logo a person sees in `scope`. */
const visibleLogo = (scope: Locator) => scope.locator('img[src^="/uploads/settings/"]').filter({ visible: true });

/**
 * The site logo a person sees in `scope`, once its file has loaded; with
 * `expected`, once it is that one (a change of colour scheme reaches the page
 * a moment after it is asked for).
 */
async function shownLogo(scope: Locator, expected?: string | null) {
  const logo = visibleLogo(scope);
  await expect(logo).toHaveCount(1);
  if (expected) await expect(logo).toHaveAttribute("src", expected);
  await expect
    .poll(() => logo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0))
    .toBe(true);
  return logo.getAttribute("src");
}

async function openBranding(page: Page) {
  await page.goto("/admin/settings/branding");
}

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const WEBSITE = "https://northwind.example/";

test("the company's logos and favicon are uploaded in Settings and show in the app, on sign-in and on error pages, dark logo in dark mode", async ({
  page,
  login,
  newContext,
  expectConsoleError,
}) => {
  expectConsoleError(failedLoad(400, "/admin/settings/branding.data"));
  expectConsoleError(failedLoad(404, "/no-such-page"));
  expectConsoleError(failedLoad(404, "/terms"));
  expectConsoleError(failedLoad(404, "/profile/nobody.here"));
  await login("admin");
  await page.setViewportSize(DESKTOP);
  await openBranding(page);

  // A file that claims to be an image but is not: a message on its field, nothing saved.
  await page.locator("#field-primaryLogo").setInputFiles({
    name: "logo.png",
    mimeType: "image/png",
    buffer: Buffer.from("this is not a picture"),
  });
  await page.getByRole("button", { name: "Save Settings" }).click();
  await expect(page.locator("#field-primaryLogo-error")).toHaveText(
    "This file is not an image we can read. Use a JPG, PNG or WebP file.",
  );
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute("href", "/favicon.svg");

  await page.locator("#field-primaryLogo").setInputFiles(await logoFile("logo.png", "#0f766e"));
  await page.locator("#field-darkModeLogo").setInputFiles(await logoFile("logo-dark.png", "#e2e8f0"));
  await page.locator("#field-favicon").setInputFiles(await logoFile("icon.png", "#ea580c", 64, 64));
  await expect(page.getByAltText("Preview of the chosen file (Dark-mode logo)")).toBeVisible();
  await saveSettings(page);
  await settingsTab(page, "General").click();
  await page.getByLabel("Website", { exact: true }).fill(WEBSITE);
  await saveSettings(page);

  // The app's shell: the logo beside the company's name.
  const sidebar = page.locator("aside").first();
  const lightLogo = await shownLogo(sidebar);
  expect(lightLogo).toMatch(/^\/uploads\/settings\/[0-9a-f]{32}-logo\.webp$/);
  await settingsTab(page, "Branding").click();
  await expect(page.getByAltText("Preview of the chosen file (Logo)")).toHaveAttribute("src", lightLogo ?? "");
  await expectAccessible(page);
  for (const [size, width] of [
    [DESKTOP, "desktop"],
    [PHONE, "mobile"],
  ] as const) {
    await page.setViewportSize(size);
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await screenshot(page, `site-assets-settings-${width}-${theme}`);
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize(DESKTOP);

  // The favicon: a PNG from this site, cached for good under its own address; /favicon.ico answers it too.
  const icon = await page.locator('link[rel="icon"]').getAttribute("href");
  expect(icon).toMatch(/^\/uploads\/settings\/[0-9a-f]{32}-favicon\.png$/);
  const served = await page.request.get(icon ?? "");
  expect([served.status(), served.headers()["content-type"], served.headers()["cache-control"]]).toEqual([
    200,
    "image/png",
    "public, max-age=31536000, immutable",
  ]);
  const ico = await page.request.get("/favicon.ico");
  expect([ico.status(), ico.headers()["content-type"]]).toEqual([200, "image/png"]);
  expect((await ico.body()).equals(await served.body())).toBe(true);

  // In dark mode the dark-mode logo takes the logo's place.
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(visibleLogo(sidebar)).not.toHaveAttribute("src", lightLogo ?? "");
  const darkLogo = await shownLogo(sidebar);
  expect(darkLogo).toMatch(/^\/uploads\/settings\/[0-9a-f]{32}-logo\.webp$/);
  expect(darkLogo).not.toBe(lightLogo);
  await page.emulateMedia({ colorScheme: "light" });

  // A member's 404 keeps the frame and leads home.
  await page.goto("/no-such-page");
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await shownLogo(page.locator("header"), lightLogo);
  await expect(page.getByRole("link", { name: "Go to the home page" })).toHaveAttribute("href", "/");

  // A visitor: the sign-in screen and the error pages show the company, and never send them to sign in.
  const visitor = await (await newContext({ viewport: DESKTOP })).newPage();
  await visitor.goto("/auth");
  await expect(visitor.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
  await shownLogo(visitor.locator("aside"), lightLogo);
  await expect(visitor.locator("aside")).toContainText("Namecard");
  await expectAccessible(visitor);
  await visitor.emulateMedia({ colorScheme: "dark" });
  await shownLogo(visitor.locator("aside"), darkLogo);
  await visitor.emulateMedia({ colorScheme: "light" });

  const pages = [
    { path: "/no-such-page", heading: "Page not found", name: "404" },
    { path: "/terms", heading: "Not published", name: "not-published" },
    { path: "/profile/nobody.here", heading: "Profile not found", name: "profile-not-found" },
  ];
  for (const { path, heading, name } of pages) {
    await visitor.setViewportSize(DESKTOP);
    await visitor.goto(path);
    await expect(visitor.getByRole("heading", { name: heading })).toBeVisible();
    const header = visitor.locator("header");
    await shownLogo(header, lightLogo);
    await expect(header).toContainText("Namecard");
    await expect(header.getByRole("button", { name: /^Theme/ })).toBeVisible();
    // The way onward is the company's website, never the sign-in page.
    await expect(visitor.getByRole("link", { name: "Visit northwind.example" })).toHaveAttribute("href", WEBSITE);
    await expect(visitor.locator('a[href^="/auth"], a[href="/"], a[href="/directory"]')).toHaveCount(0);
    if (name === "404") await expectAccessible(visitor);
    for (const [size, width] of [
      [DESKTOP, "desktop"],
      [PHONE, "mobile"],
    ] as const) {
      await visitor.setViewportSize(size);
      for (const theme of ["light", "dark"] as const) {
        await visitor.emulateMedia({ colorScheme: theme });
        if (theme === "dark") await shownLogo(header, darkLogo);
        await screenshot(visitor, `site-assets-${name}-${width}-${theme}`);
      }
    }
    await visitor.emulateMedia({ colorScheme: "light" });
  }
  await visitor.setViewportSize(PHONE);
  await visitor.goto("/auth");
  for (const theme of ["light", "dark"] as const) {
    await visitor.emulateMedia({ colorScheme: theme });
    await shownLogo(visitor.locator("header"), theme === "dark" ? darkLogo : lightLogo);
    await screenshot(visitor, `site-assets-sign-in-mobile-${theme}`);
  }
  await visitor.setViewportSize(DESKTOP);
  for (const theme of ["light", "dark"] as const) {
    await visitor.emulateMedia({ colorScheme: theme });
    await screenshot(visitor, `site-assets-sign-in-desktop-${theme}`);
  }

  // Back to no images and no website: the product's glyph and icon return.
  await openBranding(page);
  for (const label of ["Logo", "Dark-mode logo", "Favicon"]) {
    await page.getByRole("button", { name: `Remove image (${label})` }).click();
  }
  await saveSettings(page);
  await settingsTab(page, "General").click();
  await page.getByLabel("Website", { exact: true }).fill("");
  await saveSettings(page);
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute("href", "/favicon.svg");
  await expect(page.locator('img[src^="/uploads/settings/"]')).toHaveCount(0);
  expect((await page.request.get(lightLogo ?? "")).status()).toBe(404);
});

test("a visitor sees no view count or Member Since when the company hides them; the card's owner still does", async ({
  page,
  login,
  newContext,
  sessions,
}) => {
  await login("admin");
  // Who sees the numbers is a matter of privacy: its tab.
  await page.goto("/admin/settings/legal");
  const hide = page.getByRole("radio", { name: "Only people who are signed in" });
  await expect(page.getByRole("radio", { name: "Everyone who opens a card" })).toBeChecked();
  await hide.check();
  await saveSettings(page);
  await page.reload();
  await expect(hide).toBeChecked();

  // The card's owner sees both numbers, and so does an administrator.
  const card = "/profile/mia.member";
  const name = `${PEOPLE.member.firstName} ${PEOPLE.member.lastName}`;
  const ownerContext = await newContext();
  await ownerContext.addCookies((await sessions("member")).cookies);
  const owner = await ownerContext.newPage();
  await owner.goto(card);
  await expect(owner.getByRole("link", { name: "Edit Profile" })).toBeVisible();
  await expect(owner.getByTestId("view-count")).toBeVisible();
  await expect(owner.getByText("Member Since")).toBeVisible();
  await page.goto(card);
  await expect(page.getByTestId("view-count")).toBeVisible();
  await expect(page.getByText("Member Since")).toBeVisible();

  const visitor = await (await newContext()).newPage();
  await visitor.goto(card);
  await expect(visitor.getByRole("heading", { name })).toBeVisible();
  await expect(visitor.getByTestId("view-count")).toHaveCount(0);
  await expect(visitor.getByText("Member Since")).toHaveCount(0);
  await expect(visitor.getByRole("heading", { name: "Profile Stats" })).toHaveCount(0);
  await expectAccessible(visitor);
  // Not in the page at all: the HTML carries neither the number nor the date.
  const html = await (await visitor.request.get(card)).text();
  expect(html).not.toContain("Member Since");
  expect(html).not.toContain("view-count");
  expect(html).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/);
  await visitor.goto("/qr/mia.member");
  await expect(visitor.getByText(`Scan to connect with ${PEOPLE.member.firstName}`)).toBeVisible();
  await expect(visitor.getByTestId("view-count")).toHaveCount(0);

  // Shown again: the default.
  await page.goto("/admin/settings/legal");
  await page.getByRole("radio", { name: "Everyone who opens a card" }).check();
  await saveSettings(page);
  await visitor.goto(card);
  await expect(visitor.getByTestId("view-count")).toBeVisible();
  await expect(visitor.getByText("Member Since")).toBeVisible();
});
