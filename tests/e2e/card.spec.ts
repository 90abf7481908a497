import fs from "node:fs";
import sharp from "sharp";
import { present } from "../support/present";
import { expect, expectAccessible, failedLoad, screenshot, test } from "./fixtures";

/** Headless Chromium announces itself as a bot; cards do not count bots' views. */
const PERSON_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

// The tests that count views read cards no other file opens (Amelia Hart's, in
// this file's order, and Priya Raman's): a visit from a test running beside
// them would change the count between two readings.
test.describe("a visitor without JavaScript", () => {
  test.use({ javaScriptEnabled: false, userAgent: PERSON_AGENT });

  test("reads the whole card, saves the contact with a plain link, and is counted once", async ({ page }) => {
    // Seeded: Amelia Hart, Account Executive at Northwind Traders. The QR page shows the count without counting.
    await page.goto("/qr/amelia.hart");
    const before = Number(await page.getByTestId("view-count").textContent());
    await page.goto("/profile/amelia.hart");
    await expect(page.getByRole("heading", { name: "Amelia Hart", level: 1 })).toBeVisible();
    await expect(page.getByTestId("view-count")).toHaveText(String(before + 1));

    await expect(page.getByText("Account Executive")).toBeVisible();
    await expect(page.getByText("@amelia.hart")).toBeVisible();
    await expect(page.getByText("Northwind Traders").first()).toBeVisible();
    await expect(page.getByRole("link", { name: "Mobile QR" })).toHaveAttribute("href", "/qr/amelia.hart");
    await expect(page.getByRole("link", { name: "Edit Profile" })).toHaveCount(0);
    await expect(page.getByText("Unclaimed Profile")).toHaveCount(0);
    await expect(page.getByText("Status")).toHaveCount(0);
    await expect(page.getByRole("link", { name: /amelia\.hart@demo/ })).toHaveAttribute(
      "href",
      "mailto:amelia.hart@demo.namecard.test",
    );
    await expect(page.getByRole("link", { name: "northwind.example" })).toHaveAttribute(
      "href",
      "https://northwind.example",
    );
    await expect(page.getByRole("img", { name: "QR code for Amelia Hart's card" }).locator("svg")).toBeVisible();
    await expect(page.getByText("Scan with your phone camera to instantly save contact")).toBeVisible();
    await expect(page.getByText("Works with iPhone Camera & Android Scanner apps")).toBeVisible();
    await expect(page.getByText("Member Since")).toBeVisible();
    await expect(page.getByRole("heading", { name: "How to save this contact" })).toBeVisible();

    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Save Contact" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe("Amelia_Hart.vcf");
    expect(fs.readFileSync(await file.path(), "utf8")).toContain("FN:Amelia Hart");

    await page.reload();
    await expect(page.getByTestId("view-count")).toHaveText(String(before + 1));
  });

  test("gets the card's link to copy, and switches the theme with a plain form", async ({ page }) => {
    // Kenji Watanabe's card: no test counts its views.
    await page.goto("/profile/kenji.watanabe");
    await expect(page.getByRole("textbox", { name: "Link to this card" })).toHaveValue(
      "http://localhost:3100/profile/kenji.watanabe",
    );
    await expect(page.getByRole("textbox", { name: "Link to this card" })).toHaveAttribute("readonly", "");
    // The buttons that need JavaScript are not offered.
    await expect(page.getByRole("button", { name: "Share Profile" })).toBeHidden();
    await expect(page.getByRole("button", { name: "Copy Link" })).toBeHidden();
    await expect(page.getByRole("link", { name: "Download QR" })).toBeVisible();

    await expect(page.locator("html")).not.toHaveClass(/dark/);
    await expect(page.getByRole("button", { name: "System" })).toHaveAttribute("aria-pressed", "true");
    await page.getByRole("button", { name: "Dark" }).click();
    await expect(page).toHaveURL(/\/profile\/kenji\.watanabe$/);
    await expect(page.locator("html")).toHaveClass(/dark/);
    await expect(page.getByRole("button", { name: "Dark" })).toHaveAttribute("aria-pressed", "true");
    await screenshot(page, "card-no-js-desktop-dark");
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, "card-no-js-phone-dark");
    // The choice is kept for the other pages too.
    await page.goto("/qr/kenji.watanabe");
    await expect(page.locator("html")).toHaveClass(/dark/);

    await page.goto("/profile/kenji.watanabe");
    await page.getByRole("button", { name: "Light" }).click();
    await expect(page).toHaveURL(/\/profile\/kenji\.watanabe$/);
    await expect(page.locator("html")).not.toHaveClass(/dark/);
    await expect(page.getByRole("button", { name: "Light" })).toHaveAttribute("aria-pressed", "true");
    await screenshot(page, "card-no-js-phone-light");
    await page.setViewportSize({ width: 1440, height: 900 });
    await screenshot(page, "card-no-js-desktop-light");
  });

  test("sees the not-found state for an unknown card", async ({ page, expectConsoleError }) => {
    expectConsoleError(failedLoad(404, "/profile/no.such.person"));
    const response = await page.goto("/profile/no.such.person");
    expect(response?.status()).toBe(404);
    await expect(page.getByText("The profile you're looking for doesn't exist or has been removed.")).toBeVisible();
  });

  test("the server HTML carries link-preview tags and a 1200×630 preview image", async ({ page, request }) => {
    await page.goto("/profile/amelia.hart");
    const image = await page.locator('meta[property="og:image"]').getAttribute("content");
    expect(await page.locator('meta[name="twitter:card"]').getAttribute("content")).toBe("summary_large_image");
    expect(await page.locator('meta[property="og:url"]').getAttribute("content")).toBe(
      "http://localhost:3100/profile/amelia.hart",
    );
    expect(await page.locator('meta[property="og:description"]').getAttribute("content")).toContain(
      "Account Executive · Northwind Traders",
    );
    const png = await request.get(present(image, "an og:image address"));
    // It shows a person: caches ask again after five minutes, so it leaves them with a deactivated card.
    expect(png.headers()["cache-control"]).toBe("public, max-age=300");
    const metadata = await sharp(await png.body()).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(["png", 1200, 630]);
  });
});

test.describe("the mobile QR page", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("shows a large code framed in the brand colour and links back to the card", async ({
    page,
    expectConsoleError,
  }) => {
    expectConsoleError(failedLoad(404, "/qr/nobody.at.all"));
    await page.goto("/qr/amelia.hart");
    await expect(page.getByText("Scan to connect with Amelia")).toBeVisible();
    await expect(page.getByText("Point your camera at this QR code to view contact details")).toBeVisible();
    await expect(page.getByText("Powered by Namecard")).toBeVisible();
    const frame = page.getByRole("img", { name: "QR code for Amelia Hart's card" });
    await expect(frame).toHaveCSS("border-top-color", "rgb(37, 99, 235)");
    await expectAccessible(page);
    await screenshot(page, "qr-mobile-light");
    await page.emulateMedia({ colorScheme: "dark" });
    await screenshot(page, "qr-mobile-dark");
    await page.getByRole("link", { name: "View Full Profile" }).last().click();
    await expect(page).toHaveURL(/\/profile\/amelia\.hart$/);

    await page.goto("/qr/nobody.at.all");
    await expect(page.getByText("The profile you're looking for doesn't exist.")).toBeVisible();
  });
});

test.describe("members and administrators", () => {
  test.use({ userAgent: PERSON_AGENT });

  test("the owner edits their card, adds a photo, and their own visits are not counted", async ({
    page,
    login,
    expectConsoleError,
  }, testInfo) => {
    // The form with a bad address answers 400 with its messages.
    expectConsoleError(failedLoad(400, "/profile/edit.data"));
    await login("owner");
    await page.goto("/profile/olga.owner");
    await expect(page.getByTestId("view-count")).toHaveText("0");
    await page.getByRole("link", { name: "Edit Profile" }).click();
    await expect(page.getByRole("heading", { name: "Edit Profile" })).toBeVisible();
    await expect(page.getByText("Drag and drop or click to browse")).toBeVisible();
    await expect(page.getByText("JPG, PNG or WebP up to 5MB. Square images work best.")).toBeVisible();
    await expect(page.getByLabel("Bio", { exact: true })).toHaveAttribute("rows", "4");
    await expectAccessible(page);

    const photo = testInfo.outputPath("photo.png");
    await sharp({ create: { width: 600, height: 400, channels: 3, background: "#0ea5e9" } })
      .png()
      .toFile(photo);
    await page.getByLabel("Drag and drop or click to browse").setInputFiles(photo);
    await expect(page.getByAltText("Preview of the chosen file")).toBeVisible();
    await page.getByLabel("Job title", { exact: true }).fill("Chief Cartographer");
    await page.getByLabel("LinkedIn URL", { exact: true }).fill("javascript:alert(1)");
    await page.getByRole("button", { name: "Save Changes" }).click();
    // Shown in the summary at the top of the form and under the field.
    await expect(page.locator("#field-linkedinUrl-error")).toHaveText(
      "Enter the whole address, starting with https://, such as https://www.linkedin.com/in/your-name",
    );

    await page.getByLabel("LinkedIn URL", { exact: true }).fill("https://www.linkedin.com/in/olga");
    await page.getByLabel("Drag and drop or click to browse").setInputFiles(photo);
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(page).toHaveURL(/\/profile\/olga\.owner$/);
    await expect(page.getByText("Chief Cartographer")).toBeVisible();
    await expect(page.locator("main img[src^='/uploads/profiles/']").first()).toBeVisible();
    await page.reload();
    await expect(page.getByTestId("view-count")).toHaveText("0");
    await screenshot(page, "card-owner-desktop-light");
  });

  test("another member's visit counts; they see no edit button and no claim status", async ({ page, login }) => {
    await login("visitor");
    // A card no other test opens, so no other visit lands between the two readings.
    await page.goto("/qr/priya.raman");
    const before = Number(await page.getByTestId("view-count").textContent());
    await page.goto("/profile/priya.raman");
    const first = before + 1;
    await expect(page.getByTestId("view-count")).toHaveText(String(first));
    await expect(page.getByRole("link", { name: "Edit Profile" })).toHaveCount(0);
    await expect(page.getByText("Unclaimed Profile")).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId("view-count")).toHaveText(String(first));
  });

  test("sharing copies the link when there is no share sheet, then says so for 2 seconds", async ({
    page,
    context,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.addInitScript(() => {
      // Desktop Chromium has no share sheet here; make sure of it.
      Object.defineProperty(navigator, "share", { value: undefined });
    });
    await page.goto("/profile/amelia.hart");
    await page.getByRole("button", { name: "Share Profile" }).click();
    await expect(page.getByRole("button", { name: "Link Copied!" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("http://localhost:3100/profile/amelia.hart");
    await expect(page.getByRole("button", { name: "Share Profile" })).toBeVisible({ timeout: 4000 });
    await page.getByRole("button", { name: "Copy Link" }).click();
    await expect(page.getByRole("button", { name: "Copied!" })).toBeVisible();
  });

  test("Save Contact downloads the file and confirms it", async ({ page }) => {
    await page.goto("/profile/amelia.hart");
    // The alert blocks the page: accept it as soon as it shows, whatever the download is doing.
    const alert = page.waitForEvent("dialog").then(async (dialog) => {
      const message = dialog.message();
      await dialog.accept();
      return message;
    });
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Save Contact" }).click();
    expect(await alert).toBe("Contact saved! Amelia's contact information has been downloaded to your device.");
    expect((await download).suggestedFilename()).toBe("Amelia_Hart.vcf");
  });

  test("a visitor's card loads none of the app's JavaScript, and its theme buttons switch at once", async ({
    page,
  }) => {
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(request.url());
    });
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto("/profile/kenji.watanabe");
    await expect(page.getByRole("heading", { name: "Kenji Watanabe", level: 1 })).toBeVisible();
    await expect(page.getByRole("button", { name: "Share Profile" })).toBeVisible();
    await expect(page.getByRole("textbox", { name: "Link to this card" })).toBeHidden();
    await page.evaluate(() => {
      (window as unknown as { samePage: boolean }).samePage = true;
    });
    await page.getByRole("button", { name: "Dark" }).click();
    await expect(page.locator("html")).toHaveClass(/dark/);
    await expect(page.getByRole("button", { name: "Dark" })).toHaveAttribute("aria-pressed", "true");
    // No reload: the page is the same one.
    expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true);
    await expectAccessible(page);
    await page.reload();
    await expect(page.locator("html")).toHaveClass(/dark/);
    await page.getByRole("button", { name: "System" }).click();
    await expect(page.locator("html")).not.toHaveClass(/dark/);
    expect(scripts).toEqual([]);
  });

  test("an administrator sees the claim status of a prepared card", async ({ page, login }) => {
    await login("admin");
    await page.goto("/profile/samuel.adeyemi");
    await expect(page.getByText("Unclaimed Profile")).toBeVisible();
    await expect(page.getByText("Unclaimed", { exact: true }).last()).toBeVisible();
    await expectAccessible(page);
    await page.goto("/profile/amelia.hart");
    await expect(page.getByText("Unclaimed Profile")).toHaveCount(0);
    await expect(page.getByText("Active", { exact: true })).toBeVisible();
  });
});

test.describe("the card at phone width", () => {
  test.use({ viewport: { width: 390, height: 844 }, userAgent: PERSON_AGENT });

  test("is readable in light and dark", async ({ page }) => {
    await page.goto("/profile/amelia.hart");
    await expect(page.getByRole("heading", { name: "Amelia Hart", level: 1 })).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, "card-mobile-light");
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(page.locator("html")).toHaveClass(/dark/);
    await expectAccessible(page);
    await screenshot(page, "card-mobile-dark");
  });
});
