import { expect, expectAccessible, PEOPLE, screenshot, test } from "./fixtures";

test("settings apply across the product and a cleared field returns to its default", async ({
  page,
  login,
  newContext,
}) => {
  await login("admin");
  await page.goto("/admin/settings");
  await expect(page.getByRole("tab", { name: "General" })).toHaveAttribute("aria-selected", "true");
  await expectAccessible(page);
  await page.getByLabel("Company name").fill("Acme Group");
  await page.getByRole("tab", { name: "Branding" }).click();
  await page.getByLabel("Primary colour", { exact: true }).fill("#0f766e");
  await page.getByLabel("Font").selectOption("Poppins");
  await page.getByRole("tab", { name: "Legal & privacy" }).click();
  await expect(page.getByLabel("Terms of service")).toHaveAttribute("rows", "10");
  await page.getByLabel("Terms of service").fill("Be kind to each other.\nShare cards, not secrets.");
  await page.getByRole("tab", { name: "Security" }).click();
  await expect(page.getByText("Administrators are a role.")).toBeVisible();
  await expect(page.getByText(PEOPLE.admin.email)).toBeVisible();
  await page.getByRole("button", { name: "Save Settings" }).click();
  await expect(page.getByText("Settings saved successfully!")).toBeVisible();

  // Everywhere: the name, the colour, the font, the published terms.
  await expect(page.getByRole("link", { name: "Acme Group" }).first()).toBeVisible();
  const html = page.locator("html");
  await expect(html).toHaveAttribute("style", /--brand-primary:\s*#0f766e/);
  await expect(html).toHaveAttribute("style", /Poppins/);
  const visitor = await (await newContext()).newPage();
  await visitor.goto("/auth?mode=signup");
  await expect(visitor.getByRole("heading", { name: "Join Acme Group" })).toBeVisible();
  await visitor.getByRole("link", { name: "Terms of Service" }).first().click();
  await expect(visitor.getByRole("heading", { name: "Terms of Service" })).toBeVisible();
  await expect(visitor.getByText("Share cards, not secrets.")).toBeVisible();
  await visitor.goto("/qr/amelia.hart");
  await expect(visitor.getByText("Powered by Acme Group")).toBeVisible();
  await screenshot(visitor, "qr-after-settings");
  await screenshot(page, "admin-settings-desktop-light");

  // Clearing on purpose brings the defaults back.
  await page.getByRole("tab", { name: "General" }).click();
  await page.getByLabel("Company name").fill("");
  await page.getByRole("tab", { name: "Legal & privacy" }).click();
  await page.getByLabel("Terms of service").fill("");
  await page.getByRole("button", { name: "Save Settings" }).click();
  await expect(page.getByText("Settings saved successfully!")).toBeVisible();
  await expect(page.getByRole("link", { name: "Namecard" }).first()).toBeVisible();
  const gone = await page.request.get("/terms");
  expect(gone.status()).toBe(404);
});
