import { expect, expectAccessible, failedLoad, screenshot, settingsTab, test } from "./fixtures";

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("a member fills in department, office, pronouns and links, keeps the phone to colleagues, and each viewer sees what they may", async ({
    page,
    login,
    browser,
  }) => {
    await login("detailed");
    await page.goto("/profile/edit");
    await page.getByLabel("Pronouns", { exact: true }).fill("she/her");
    await page.getByLabel("Phone", { exact: true }).fill("+351 21 555 0142");
    await page.getByLabel("Phone visibility").selectOption({ label: "Colleagues" });
    await page.getByLabel("Department", { exact: true }).fill("Logistics");
    await page.getByLabel("Office", { exact: true }).fill("Lisbon");
    await page.getByLabel("Languages", { exact: true }).fill("Portuguese, English");
    await page.getByLabel("Languages visibility").selectOption({ label: "Only me" });
    await page.getByLabel("Link 1 kind").selectOption({ label: "GitHub" });
    await page.getByLabel("Link 1 address").fill("https://github.com/dora-details");
    await expectAccessible(page);
    await screenshot(page, "card-fields-edit-mobile-light");
    await page.getByRole("button", { name: /Save/ }).click();

    await expect(page.getByRole("heading", { name: "Dora Details" })).toBeVisible();
    await expect(page.getByTestId("pronouns")).toHaveText("(she/her)");
    await expect(page.getByText("Logistics")).toBeVisible();
    await expect(page.getByRole("link", { name: /GitHub/ })).toHaveAttribute("href", "https://github.com/dora-details");
    // The owner sees everything, the languages kept to themselves included.
    await expect(page.getByText("Portuguese, English")).toBeVisible();
    await expect(page.getByText("+351 21 555 0142")).toBeVisible();
    await screenshot(page, "card-fields-card-owner-mobile-light");

    // A visitor without an account: no phone, no languages, the rest as public.
    const stranger = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: "dark" });
    const visitor = await stranger.newPage();
    const response = await visitor.goto("/profile/dora.details");
    const html = (await response?.text()) ?? "";
    expect(html).not.toContain("555 0142");
    expect(html).not.toContain("Portuguese, English");
    await expect(visitor.getByText("Lisbon")).toBeVisible();
    await expect(visitor.getByRole("link", { name: /GitHub/ })).toBeVisible();
    await screenshot(visitor, "card-fields-card-visitor-mobile-dark");
    await stranger.close();

    // A colleague sees the phone, and still not the languages.
    await login("member", { fresh: true });
    await page.goto("/profile/dora.details");
    await expect(page.getByText("+351 21 555 0142")).toBeVisible();
    await expect(page.getByText("Portuguese, English")).toHaveCount(0);
  });

  test("a link to a look-alike site gets a message on the link, and nothing is saved", async ({
    page,
    login,
    expectConsoleError,
  }) => {
    // The form with a bad link answers 400 with its messages.
    expectConsoleError(failedLoad(400, "/profile/edit.data"));
    await login("detailed");
    await page.goto("/profile/edit");
    await page.getByLabel("Link 1 kind").selectOption({ label: "GitHub" });
    await page.getByLabel("Link 1 address").fill("https://github.com.evil.example/me");
    await page.getByRole("button", { name: /Save/ }).click();
    await expect(
      page.getByText('Use an address at github.com for a GitHub link, or choose "Link"').first(),
    ).toBeVisible();
    await expect(page.getByLabel("Link 1 address")).toHaveAttribute("aria-invalid", "true");
  });
});

test("the edit form with each detail's visibility, and Settings' Card fields tab, read well on a desktop and a phone", async ({
  page,
  login,
}) => {
  // Each width once and each scheme once: the desktop dark, the phone light.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: "dark" });
  await login("member");
  await page.goto("/profile/edit");
  await expect(page.getByLabel("Bio visibility")).toBeVisible();
  await expect(page.getByLabel("Department visibility").locator("option")).toHaveText(["Public", "Colleagues"]);
  await expect(page.getByLabel("Email visibility").locator("option")).toHaveText(["Public", "Colleagues", "Only me"]);
  await screenshot(page, "card-fields-edit-desktop-dark");

  await login("admin", { fresh: true });
  for (const [name, viewport, scheme] of [
    ["desktop", { width: 1280, height: 900 }, "dark"],
    ["mobile", { width: 390, height: 844 }, "light"],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto("/admin/settings/fields");
    await expect(settingsTab(page, "Card fields")).toHaveAttribute("aria-current", "page");
    await expect(page.getByLabel("Office visibility")).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, `card-fields-settings-${name}-${scheme}`);
  }
});

for (const [name, viewport] of [
  ["a phone", { width: 390, height: 844 }],
  ["a desktop", { width: 1280, height: 900 }],
] as const) {
  test(`on ${name} a member narrows the directory by department and office, each with its number of people, kept in the URL`, async ({
    page,
    login,
  }) => {
    await page.setViewportSize(viewport);
    await login("member");
    await page.goto("/directory");
    // The page is live (its script running): a choice searches at once.
    await expect(page.locator("html[data-live=connected]")).toHaveCount(1);
    const department = page.getByLabel("Department", { exact: true });
    const office = page.getByLabel("Office", { exact: true });
    await expect(department.locator("option", { hasText: /^Engineering \(\d+\)$/ })).toHaveCount(1);
    await department.selectOption({
      label: (await department.locator("option", { hasText: "Engineering" }).textContent())!,
    });
    await expect(page).toHaveURL(/department=Engineering/);
    await office.selectOption("Lisbon");
    await expect(page).toHaveURL(/department=Engineering.*office=Lisbon|office=Lisbon.*department=Engineering/);
    // The office's count is of the people in Engineering there: what the page lists, once the
    // search has come back (until then the choice shows the counts of the page before it).
    await expect(async () => {
      const chosen = (await office.locator("option:checked").textContent()) ?? "";
      const count = Number(/^Lisbon \((\d+)\)$/.exec(chosen)?.[1]);
      expect(count).toBeGreaterThan(0);
      await expect(page.getByRole("heading", { name: `${count} ${count === 1 ? "Profile" : "Profiles"}` })).toBeVisible(
        {
          timeout: 1_000,
        },
      );
      await expect(page.getByRole("link", { name: /^View Card of / })).toHaveCount(count, { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await screenshot(page, `directory-facets-${viewport.width}`);
  });
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the directory's department filter is a plain form, and the address it leads to filters on the server", async ({
    page,
    login,
  }) => {
    await login("member");
    await page.goto("/directory");
    const department = page.getByLabel("Department", { exact: true });
    await department.selectOption("Sales");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/department=Sales/);
    await expect(page.getByLabel("Department", { exact: true }).locator("option:checked")).toHaveText(
      /^Sales \(\d+\)$/,
    );
    for (const tile of await page.getByTestId("department").all()) await expect(tile).toHaveText("Sales");
  });
});
