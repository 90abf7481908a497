import type { Page } from "@playwright/test";
import { expect, expectAccessible, failedLoad, screenshot, test } from "./fixtures";

/**
 * Leads: a visitor shares their details back from a card on a phone, with and
 * without JavaScript, and the card's owner sees, notes, exports and deletes them.
 */

const PHONE = { width: 390, height: 844 };
/** The form's own minimum (app/.server/leads/submit.ts) and a little more. */
const FILL_MS = 3_500;

/** Waits until the form has been open as long as a person needs to fill it: sooner, it is taken for a script. */
async function formOldEnough(page: Page) {
  const stamp = await page.locator('input[name="stamp"]').inputValue();
  const shownAt = Number(stamp.split(".")[0]);
  await expect.poll(() => Date.now() - shownAt, { timeout: 15_000 }).toBeGreaterThan(FILL_MS);
}

test("a visitor on a phone without JavaScript shares their details from a card's QR page, and its owner sees, notes, exports and deletes them", async ({
  page,
  login,
  newContext,
  sessions,
  expectConsoleError,
}) => {
  // The form's answer to a mistake is a 400, which the browser reports.
  expectConsoleError(failedLoad(400, "/profile/mia.member/share-back?src=qr"));
  const visitorContext = await newContext({ javaScriptEnabled: false, viewport: PHONE });
  const visitor = await visitorContext.newPage();
  await visitor.goto("/qr/mia.member");
  await visitor.getByRole("link", { name: "Share your details with Mia" }).click();
  await expect(visitor.getByRole("heading", { name: "Share your details with Mia", level: 1 })).toBeVisible();
  const consent = visitor.getByRole("checkbox", { name: /I agree that Mia Member of/ });
  await expect(consent).not.toBeChecked();
  await expect(visitor.getByRole("link", { name: "Privacy policy" })).toHaveAttribute("href", "/privacy");
  await visitor.getByLabel("Name", { exact: true }).fill("Quentin Quest");
  await visitor.getByLabel("Email", { exact: true }).fill("quentin@fair.example");
  await visitor.getByLabel("Company", { exact: true }).fill("=Fair Trade GmbH");
  await visitor.getByLabel("Note", { exact: true }).fill("Stand 12, about the spring order.");
  await screenshot(visitor, "share-back-phone-light");

  // Without the consent, nothing is sent: the box says why.
  await formOldEnough(visitor);
  await visitor.getByRole("button", { name: "Share my details" }).click();
  await expect(visitor.getByText("Tick the box to agree, or your details cannot be sent")).toBeVisible();
  await expect(visitor.getByLabel("Name", { exact: true })).toHaveValue("Quentin Quest");
  await visitor.getByRole("checkbox", { name: /I agree that Mia Member of/ }).check();
  await visitor.getByRole("button", { name: "Share my details" }).click();
  await expect(visitor.getByRole("heading", { name: "Thank you!" })).toBeVisible();
  await expect(visitor.getByText("Mia has your details")).toBeVisible();
  const { scrollWidth, innerWidth } = await visitor.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, "the page's width on a phone").toBeLessThanOrEqual(innerWidth);
  await screenshot(visitor, "share-back-sent-phone-light");

  // The owner finds it on their Leads page, from home.
  await login("member");
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Your card, last 30 days" })).toBeVisible();
  await expect(page.getByTestId("activity-Leads")).not.toHaveText("0");
  await screenshot(page, "home-activity-desktop-light");
  await page.getByRole("link", { name: "Your leads" }).click();
  await expect(page.getByRole("heading", { name: "Leads", level: 1 })).toBeVisible();
  const lead = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Quentin Quest" }) });
  await expect(lead).toContainText("=Fair Trade GmbH");
  await expect(lead).toContainText("QR code");
  await expect(lead).toContainText("Stand 12, about the spring order.");
  await lead.getByLabel("Your note").fill("Send the price list");
  await lead.getByRole("button", { name: "Save note" }).click();
  await expect(page.getByText("Note saved.")).toBeVisible();
  await expect(lead.getByLabel("Your note")).toHaveValue("Send the price list");
  await expectAccessible(page);
  await screenshot(page, "leads-desktop-light");

  // An owner in Tokyo reads when it came in their own time, with the zone named.
  const tokyo = await newContext({ timezoneId: "Asia/Tokyo" });
  await tokyo.addCookies((await sessions("member")).cookies);
  const inTokyo = await tokyo.newPage();
  await inTokyo.goto("/leads");
  const shared = inTokyo
    .getByRole("listitem")
    .filter({ has: inTokyo.getByRole("heading", { name: "Quentin Quest" }) })
    .locator("time");
  await expect(shared).toHaveText(/ GMT\+9$/);
  await tokyo.close();

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const csv = await (await download).path();
  const text = (await import("node:fs")).readFileSync(csv, "utf8");
  expect(text).toContain('"\'=Fair Trade GmbH"');
  expect(text).toContain('"Send the price list"');

  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize(PHONE);
  await page.reload();
  await screenshot(page, "leads-phone-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 720 });

  await lead.getByText("Delete…").click();
  await lead.getByRole("button", { name: "Delete lead" }).click();
  await expect(page.getByText("Quentin Quest's details were deleted.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Quentin Quest" })).toHaveCount(0);
});

test("a visitor with JavaScript shares back from a card page and asks for the card by e-mail; the form works in dark mode on a desktop", async ({
  newContext,
  expectConsoleError,
}) => {
  // The form's answer to a mistake is a 400, which the browser reports.
  expectConsoleError(failedLoad(400, "/profile/mia.member/share-back.data"));
  const visitorContext = await newContext({ colorScheme: "dark" });
  const visitor = await visitorContext.newPage();
  await visitor.goto("/profile/mia.member");
  await visitor.getByRole("link", { name: "Share your details with Mia" }).click();
  await expect(visitor.getByRole("heading", { name: "Share your details with Mia", level: 1 })).toBeVisible();
  await visitor.getByLabel("Name", { exact: true }).fill("Rosa Reply");
  await visitor.getByLabel("Phone", { exact: true }).fill("+44 20 7946 0000");
  await visitor.getByRole("checkbox", { name: "Also email me Mia's contact card" }).check();
  await visitor.getByRole("checkbox", { name: /I agree that Mia Member of/ }).check();
  await formOldEnough(visitor);
  await visitor.getByRole("button", { name: "Share my details" }).click();
  // The card by e-mail needs an address: said on its box, the rest kept.
  await expect(visitor.getByText("Enter your email address to receive the contact card")).toBeVisible();
  await expectAccessible(visitor);
  await screenshot(visitor, "share-back-desktop-dark");
  await visitor.getByLabel("Email", { exact: true }).fill("rosa@example.org");
  await visitor.getByRole("button", { name: "Share my details" }).click();
  await expect(visitor.getByRole("heading", { name: "Thank you!" })).toBeVisible();
  await expect(visitor.getByText("Mia's contact card is on its way to your inbox.")).toBeVisible();
});

test("leads are for signed-in owners: a visitor is sent to sign in", async ({ newContext }) => {
  const visitor = await (await newContext()).newPage();
  for (const path of ["/leads", "/leads/export.csv", "/leads/export.vcf"]) {
    const answer = await visitor.request.get(path, { maxRedirects: 0 });
    expect(answer.status(), path).toBe(302);
    expect(answer.headers().location).toBe(`/auth?redirectTo=${encodeURIComponent(path)}`);
  }
});
