import sharp from "sharp";
import { expect, expectAccessible, screenshot, switchScheme, test, uniqueEmail } from "./fixtures";

/**
 * A chosen photo is framed before it is saved: the circle shows what the card
 * will show, moved by dragging or the arrow keys and zoomed, and what is saved
 * is that square, not the server's middle one.
 */

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test("an administrator frames a wide photo on a phone with the keyboard, and the card keeps the part they chose", async ({
  page,
  login,
}, testInfo) => {
  await login("admin");
  const lastName = `Framed${Date.now().toString(36)}`;
  const created = await page.request.post("/admin/profiles/create", {
    multipart: {
      firstName: "Fern",
      lastName,
      email: uniqueEmail("fern"),
      title: "",
      phone: "",
      bio: "",
      linkedinUrl: "",
      companyBrandId: "",
    },
    maxRedirects: 0,
  });
  expect(created.status()).toBe(302);

  // Red on the left half, blue on the right: the middle square the server would take is half of each.
  const photo = testInfo.outputPath("wide.png");
  const half = (color: string) =>
    sharp({ create: { width: 300, height: 300, channels: 3, background: color } })
      .png()
      .toBuffer();
  await sharp({ create: { width: 600, height: 300, channels: 3, background: "#000000" } })
    .composite([
      { input: await half("#dc2626"), left: 0, top: 0 },
      { input: await half("#2563eb"), left: 300, top: 0 },
    ])
    .png()
    .toFile(photo);

  await page.goto(`/admin/profiles?q=${lastName}`);
  await page.getByRole("button", { name: `Edit Fern ${lastName}` }).click();
  const dialog = page.getByRole("dialog", { name: `Edit Profile: Fern ${lastName}` });
  await dialog.locator('input[name="photo"]').setInputFiles(photo);
  const frame = dialog.getByRole("button", { name: "Photo position" });
  await expect(frame).toBeVisible();
  await expect(
    dialog.getByText("Drag the photo, or use the arrow keys, to choose what shows in the circle; + and − zoom."),
  ).toBeVisible();
  await expectAccessible(page);
  for (const theme of ["light", "dark"] as const) {
    await switchScheme(page, theme);
    await screenshot(page, `photo-frame-phone-${theme}`);
  }

  // The photo moved right as far as it goes: the circle shows its left, red half.
  await frame.focus();
  for (let press = 0; press < 5; press++) await frame.press("Shift+ArrowRight");
  await expect(frame).toHaveAttribute("data-frame", "1.00 112 0");
  // Zoomed in and back out with the keys, it keeps to the photo's edge.
  await frame.press("+");
  await frame.press("-");
  await expect(frame).toHaveAttribute("data-frame", "1.00 112 0");
  // The framed square is drawn a moment after the last key, and becomes the file the form sends.
  await expect(frame).toHaveAttribute("data-drawn", "1.00 112 0");
  expect(
    await dialog.locator('input[name="photo"]').evaluate((input: HTMLInputElement) => input.files?.[0]?.name),
  ).toBe("photo.jpg");

  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(dialog).toBeHidden();
  const saved = page.locator(`img[src^="/uploads/profiles/"]`).first();
  const source = await saved.getAttribute("src");
  const file = await page.request.get(source ?? "");
  expect(file.ok()).toBe(true);
  const [red, , blue] = (await sharp(await file.body()).stats()).channels;
  expect(red?.mean, "the photo's red").toBeGreaterThan(180);
  expect(blue?.mean, "the photo's blue").toBeLessThan(80);
});
