import { expect, expectAccessible, failedLoad, test } from "./fixtures";
import { LONG_CARD, PLAIN_CARD } from "./people";

const QR = `/qr/${LONG_CARD.person.username}`;
const CARD = `/profile/${LONG_CARD.person.username}`;

/** Every link on the page that leads to sign-in or to the members-only directory. */
async function deadEnds(page: import("@playwright/test").Page) {
  const hrefs = await page.locator("a[href]").evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
  return hrefs.filter((href) => /^\/(auth|sign-in|directory)\b/.test(href));
}

test.describe("a visitor who scanned a code", () => {
  test("is offered the brand's website as Back on a fresh QR page, never the sign-in page", async ({ newContext }) => {
    const page = await (await newContext()).newPage();
    await page.goto(QR);
    await expect(page.getByText(`Scan to connect with ${LONG_CARD.person.firstName}`)).toBeVisible();
    const back = page.getByTestId("way-back");
    await expect(back).toHaveAttribute("href", LONG_CARD.brand.website);
    await expect(back).toHaveAccessibleName(`Back to ${LONG_CARD.brand.name}`);
    expect(await deadEnds(page)).toEqual([]);
    await expectAccessible(page);

    // From the QR page to the card, Back returns to the QR page.
    await page.getByRole("link", { name: "View Full Profile" }).first().click();
    await expect(page).toHaveURL(CARD);
    expect(await deadEnds(page)).toEqual([]);
    await page.getByRole("link", { name: "Back", exact: true }).click();
    await expect(page).toHaveURL(QR);
  });

  test("gets the same way back with JavaScript off: the server chooses it", async ({ newContext }) => {
    const page = await (await newContext({ javaScriptEnabled: false })).newPage();
    for (const path of [QR, CARD]) {
      await page.goto(path);
      await expect(page.getByTestId("way-back")).toHaveAttribute("href", LONG_CARD.brand.website);
      expect(await deadEnds(page)).toEqual([]);
    }
  });

  test("sees no Back where the card has no brand website and the company none either", async ({
    newContext,
    expectConsoleError,
  }) => {
    expectConsoleError(failedLoad(404, "/qr/nobody.here"));
    const page = await (await newContext()).newPage();
    for (const path of [`/qr/${PLAIN_CARD.username}`, `/profile/${PLAIN_CARD.username}`]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { name: `${PLAIN_CARD.firstName} ${PLAIN_CARD.lastName}` })).toBeVisible();
      await expect(page.getByRole("link", { name: /^Back/ })).toHaveCount(0);
      expect(await deadEnds(page)).toEqual([]);
    }
    const missing = await (await newContext()).newPage();
    await missing.goto("/qr/nobody.here");
    await expect(missing.getByRole("heading", { name: "Profile not found" })).toBeVisible();
    await expect(missing.getByRole("link", { name: /^Back/ })).toHaveCount(0);
    expect(await deadEnds(missing)).toEqual([]);
  });
});

test("a signed-in member keeps Back to Directory", async ({ page, login, expectConsoleError }) => {
  expectConsoleError(failedLoad(404, "/profile/nobody.here"));
  await login("member");
  await page.goto("/profile/nobody.here");
  await expect(page.getByRole("link", { name: "Back to Directory" })).toHaveAttribute("href", "/directory");
  await page.goto(QR);
  await expect(page.getByTestId("way-back")).toHaveAttribute("href", "/directory");
});
