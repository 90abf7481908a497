import type { Locator, Page } from "@playwright/test";
import { expect, expectAccessible, failedLoad, screenshot, switchScheme, test } from "./fixtures";
import { LONG_CARD } from "./people";

const { person } = LONG_CARD;
const CARD = `/profile/${person.username}`;
const QR = `/qr/${person.username}`;

/** The page does not scroll sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, "the page's width").toBeLessThanOrEqual(innerWidth);
}

/** The element shows all of its text: nothing clipped inside it, and its box ends within the viewport. */
async function expectWhole(element: Locator) {
  const box = await element.evaluate((el) => ({
    right: el.getBoundingClientRect().right,
    scrollWidth: el.scrollWidth,
    clientWidth: el.clientWidth,
    viewport: window.innerWidth,
    overflow: getComputedStyle(el).textOverflow,
  }));
  expect(box.scrollWidth, "text wider than its box").toBeLessThanOrEqual(box.clientWidth);
  expect(box.right, "right edge past the viewport").toBeLessThanOrEqual(box.viewport);
  expect(box.overflow).not.toBe("ellipsis");
}

const SCHEMES = ["light", "dark"] as const;

/** The page in light, then in dark: the layout is the same, and one page load serves both. */
async function inEachScheme(page: Page, check: (scheme: (typeof SCHEMES)[number]) => Promise<void>) {
  for (const scheme of SCHEMES) {
    await switchScheme(page, scheme);
    await check(scheme);
  }
}

for (const width of [390, 1440]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });
    const device = width === 390 ? "mobile" : "desktop";

    test("a card with a very long name, email and address shows all of it, wrapped within the screen", async ({
      page,
    }) => {
      await page.goto(CARD);
      await inEachScheme(page, async (scheme) => {
        const name = page.getByRole("heading", { level: 1 });
        await expect(name).toHaveText(`${person.firstName} ${person.lastName}`);
        await expectWhole(name);
        await expectWhole(page.getByText(person.title));
        const email = page.getByTestId("contact-text").filter({ hasText: "@" });
        await expect(email).toHaveText(person.email);
        await expectWhole(email);
        const linkedin = page.getByTestId("contact-text").filter({ hasText: "linkedin" });
        await expect(linkedin).toHaveText(person.linkedinUrl.replace("https://", "").replace(/\/$/, ""));
        await expectWhole(linkedin);
        await expectNoSidewaysScroll(page);
        if (scheme === "light") await expectAccessible(page);
        await screenshot(page, `long-card-${device}-${scheme}`);
      });
    });

    test("the QR page of that card shows the whole name and title within the screen", async ({ page }) => {
      await page.goto(QR);
      await inEachScheme(page, async (scheme) => {
        await expectWhole(page.getByRole("heading", { level: 1 }));
        await expectWhole(page.getByText(person.title));
        await expectWhole(page.getByTestId("card-banner").getByText(LONG_CARD.brand.name));
        await expectNoSidewaysScroll(page);
        if (scheme === "light") await expectAccessible(page);
        await screenshot(page, `long-qr-${device}-${scheme}`);
      });
    });

    test("a form with mistakes says what to do, one message per field, within the screen", async ({
      page,
      login,
      expectConsoleError,
    }) => {
      expectConsoleError(failedLoad(400, "/profile/edit.data"));
      await login("owner");
      await page.goto("/profile/edit");
      await page.getByLabel("First name").fill("  ");
      await page.getByLabel("Phone", { exact: true }).fill("call me");
      await page.getByRole("button", { name: "Save Changes" }).click();
      await expect(page.getByTestId("error-summary")).toBeFocused();
      await inEachScheme(page, async (scheme) => {
        await expect(page.locator("#field-firstName-error")).toHaveText("Enter a first name");
        await expect(page.locator("#field-phone-error")).toHaveText(/^Enter a phone number such as/);
        await expectNoSidewaysScroll(page);
        await screenshot(page, `form-errors-${device}-${scheme}`);
      });
    });

    test("analytics and profile management fit the screen, long emails kept to one line and shown whole on focus", async ({
      page,
      login,
    }) => {
      await login("admin");
      await page.goto("/admin/analytics");
      await expect(page.getByRole("heading", { name: "Analytics" })).toBeVisible();
      await inEachScheme(page, async (scheme) => {
        await expectNoSidewaysScroll(page);
        await screenshot(page, `analytics-${device}-${scheme}`);
      });

      await page.goto(`/admin/profiles?q=${person.username}`);
      const email = page.locator(width === 390 ? "li" : "td").getByText(person.email, { exact: true });
      await inEachScheme(page, async (scheme) => {
        await expect(email).toBeVisible();
        // A long address is kept to one line within its column; the whole of it shows on focus (and hover).
        // Focused again until the page's script is running: focus before hydration opens nothing.
        await expect(async () => {
          await email.blur();
          await email.focus();
          await expect(page.getByRole("tooltip")).toHaveText(person.email, { timeout: 1_000 });
        }).toPass();
        await page.keyboard.press("Escape");
        await expectNoSidewaysScroll(page);
        if (scheme === "dark") await expectAccessible(page);
        await screenshot(page, `admin-profiles-${device}-${scheme}`);
      });
    });
  });
}

test.describe("the own card's top bar at 390 px", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("keeps each label on one line, within the screen", async ({ page, login }) => {
    await login("owner");
    await page.goto("/profile/olga.owner");
    const bar = page.locator("header").first();
    const items = bar.locator("a, button");
    await expect(bar.getByRole("link", { name: "Edit Profile" })).toBeVisible();
    const boxes = await items.evaluateAll((elements) =>
      elements.map((el) => {
        const rect = el.getBoundingClientRect();
        const text = el.textContent ?? "";
        // The lines the visible label takes: the tops of its text's boxes.
        const tops = new Set<number>();
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (node.parentElement?.closest(".sr-only") || !node.textContent?.trim()) continue;
          const range = document.createRange();
          range.selectNodeContents(node);
          for (const r of Array.from(range.getClientRects())) tops.add(Math.round(r.top));
        }
        return { text, right: rect.right, lines: tops.size, vw: window.innerWidth };
      }),
    );
    for (const box of boxes) {
      expect(box.lines, `"${box.text}" on one line`).toBeLessThanOrEqual(1);
      expect(box.right, `"${box.text}" within the screen`).toBeLessThanOrEqual(box.vw);
    }
    await expectNoSidewaysScroll(page);
    await screenshot(page, "own-card-top-bar-mobile-light");
  });
});
