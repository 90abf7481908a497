import { expect, expectAccessible, screenshot, test } from "./fixtures";

const PERSON_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

test("a member searches as they type, filters by brand, and Back restores the search", async ({ page, login }) => {
  await login("member");
  await page.goto("/directory");
  await expect(page.getByRole("heading", { name: "Directory", level: 1 })).toBeVisible();
  await expect(page.getByText("Find and connect with your colleagues across all brands.")).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Status" })).toHaveCount(0);
  await expect(page.getByRole("list", { name: "Legend" })).toHaveCount(0);
  await expectAccessible(page);

  await page.getByPlaceholder("Search by name, email, username, or bio...").fill("zoe");
  await expect(page).toHaveURL(/\/directory\?q=zoe$/);
  await expect(page.getByRole("heading", { name: "1 Profile", exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Zoë Laurent" })).toBeVisible();

  await page.getByPlaceholder("Search by name, email, username, or bio...").fill("");
  // Each brand is listed with its number of people: "Lumen Studio (3)".
  const brand = page.getByRole("combobox", { name: "Brand" });
  await brand.selectOption(
    (await brand.locator("option", { hasText: /^Lumen Studio \(\d+\)$/ }).getAttribute("value"))!,
  );
  await expect(page).toHaveURL(/brand=\d+/);
  const lumen = page.getByRole("article");
  await expect(lumen.first()).toBeVisible();
  for (const badge of await lumen.locator("text=Lumen Studio").all()) await expect(badge).toBeVisible();
  await screenshot(page, "directory-desktop-light");

  await page.getByRole("button", { name: "List view" }).click();
  await expect(page.getByRole("button", { name: "List view" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByText(/^\d+ views?$/).first()).toBeVisible();
  await page.reload();
  await expect(page.getByRole("button", { name: "List view" })).toHaveAttribute("aria-pressed", "true");

  await page.getByPlaceholder("Search by name, email, username, or bio...").fill("fischer");
  await expect(page).toHaveURL(/q=fischer/);
  await expect(page.getByRole("heading", { name: "1 Profile", exact: true })).toBeVisible();
  await page.getByRole("link", { name: "View Card of Noah Fischer" }).click();
  await expect(page).toHaveURL(/\/profile\/noah\.fischer\?src=directory$/);
  await page.goBack();
  await expect(page).toHaveURL(/q=fischer/);
  await expect(page.getByPlaceholder("Search by name, email, username, or bio...")).toHaveValue("fischer");
  await expect(page.getByRole("heading", { name: "Noah Fischer" })).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the search form works as a plain GET and shows the empty state", async ({ page, login }) => {
    await login("member");
    await page.goto("/directory");
    await page.getByPlaceholder("Search by name, email, username, or bio...").fill("no such person at all");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/q=no\+such\+person\+at\+all/);
    await expect(page.getByText("No profiles found")).toBeVisible();
    await expect(page.getByText("Try adjusting your search or filter criteria.")).toBeVisible();
    await expect(page.getByRole("heading", { name: "0 Profiles" })).toBeVisible();
  });
});

test("the administrator sees the legend, the status filter and a dot per card", async ({ page, login }) => {
  await login("admin");
  await page.goto("/directory?status=unclaimed");
  await expect(page.getByRole("list", { name: "Legend" })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Status" })).toHaveValue("unclaimed");
  await expect(page.locator("article").first().getByTitle("Unclaimed")).toBeVisible();
  await expect(page.locator("article").getByTitle("Claimed", { exact: true })).toHaveCount(0);
  await expectAccessible(page);
});

test("a change made in one browser reaches another without a reload", async ({ page, login, newContext }) => {
  await login("member");
  await page.goto("/directory?q=ethan.brooks");
  await expect(page.locator("html")).toHaveAttribute("data-live", "connected");
  const card = page.getByRole("article").filter({ hasText: "Ethan Brooks" });
  const views = card.getByText(/views?$/);
  const before = Number((await views.textContent())?.split(" ")[0]);
  expect(before).toBeGreaterThanOrEqual(0);

  // Someone else, elsewhere, opens Ethan's card.
  const stranger = await newContext({
    userAgent: PERSON_AGENT,
    extraHTTPHeaders: { "x-forwarded-for": "198.51.100.200" },
  });
  const other = await stranger.newPage();
  await other.goto("/profile/ethan.brooks");
  await expect(other.getByRole("heading", { name: "Ethan Brooks", level: 1 })).toBeVisible();

  await expect(views).toHaveText(`${before + 1} ${before + 1 === 1 ? "view" : "views"}`, { timeout: 10_000 });
});

test.describe("at phone width", () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test("the directory is one column and readable in dark mode", async ({ page, login }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await login("member");
    await page.goto("/directory");
    await expect(page.getByRole("heading", { name: /\d+ Profiles/ })).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, "directory-mobile-dark");
  });

  test("each colleague is a row of a phone book, without view counts, and the whole row opens the card", async ({
    page,
    login,
  }) => {
    await login("member");
    await page.goto("/directory");
    for (const layout of ["Grid view", "List view"]) {
      await page.getByRole("button", { name: layout }).click();
      const rows = page
        .getByRole(layout === "Grid view" ? "article" : "listitem")
        .filter({ has: page.getByRole("heading", { level: 3 }) });
      await expect(rows.first()).toBeVisible();
      for (const row of (await rows.all()).slice(0, 6)) {
        expect((await row.boundingBox())?.height).toBeLessThanOrEqual(90);
      }
      for (const count of await page.getByText(/^\d+ views?$/).all()) await expect(count).toBeHidden();
      await screenshot(page, `directory-rows-${layout === "Grid view" ? "grid" : "list"}-phone-light`);
    }
    await page.getByPlaceholder("Search by name, email, username, or bio...").fill("fischer");
    await expect(page.getByRole("heading", { name: "1 Profile", exact: true })).toBeVisible();
    const row = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Noah Fischer" }) });
    await row.click({ position: { x: 120, y: 20 } });
    await expect(page).toHaveURL(/\/profile\/noah\.fischer\?src=directory$/);
  });

  test("the search and its filters stay in reach as the people scroll, and an A–Z strip leads to a letter", async ({
    page,
    login,
  }) => {
    await login("member");
    await page.goto("/directory");
    const search = page.getByPlaceholder("Search by name, email, username, or bio...");
    // Before the page scrolls, the search bar sits where the first letters are: they stay on top, and take a tap.
    const strip = page.getByRole("navigation", { name: "Jump to a letter" });
    await strip.getByRole("link").first().click({ trial: true, timeout: 5_000 });
    await page.evaluate(() => window.scrollTo(0, 1500));
    await expect(search).toBeInViewport();
    await expect(page.getByLabel("Department", { exact: true })).toBeInViewport();
    const last = strip.getByRole("link").last();
    const letter = ((await last.textContent()) ?? "").trim();
    await last.click();
    await expect(page).toHaveURL(new RegExp(`#letter-${letter}$`));
    await expect(page.locator(`#letter-${letter}`)).toBeInViewport();
    await expect(search).toBeInViewport();
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await expectAccessible(page);
      await screenshot(page, `directory-a-z-phone-${theme}`);
    }
    // A search has no index: its few results need none.
    await search.fill("fischer");
    await expect(page.getByRole("heading", { name: "1 Profile", exact: true })).toBeVisible();
    await expect(strip).toHaveCount(0);
  });
});
