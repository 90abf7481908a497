import { chooseAction, expect, expectAccessible, screenshot, test } from "./fixtures";
import { BRAND_CARDS } from "./people";

const ONYX = BRAND_CARDS.onyx;
const SAFFRON = BRAND_CARDS.saffron;

test("an administrator makes Lena the administrator of Onyx Partners: on a phone and a desktop she runs its people and look, and sees no other brand", async ({
  page,
  login,
  newContext,
  sessions,
}) => {
  test.slow();
  await login("admin");
  await page.goto("/admin/profiles?q=lena.lead");
  const row = page.getByRole("row", { name: /Lena Lead/ });
  // A retry finds her appointed already: the same dialog then says so.
  await chooseAction(row, "Lena Lead", /^(Make brand administrator…|Change brands they run…)$/);
  const dialog = page.getByRole("dialog", { name: "Brands Lena Lead runs" });
  await dialog.getByRole("checkbox", { name: ONYX.brand.name }).check();
  await expectAccessible(page);
  await screenshot(page, "brand-administration-dialog");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(`Lena Lead now runs ${ONYX.brand.name}.`)).toBeVisible();
  await expect(row.getByText(`Runs ${ONYX.brand.name}`)).toBeVisible();

  const lead = await newContext();
  await lead.addCookies((await sessions("lead")).cookies);
  const theirs = await lead.newPage();
  for (const [device, width] of [
    ["phone", 390],
    ["desktop", 1280],
  ] as const) {
    await theirs.setViewportSize({ width, height: 900 });
    for (const theme of ["light", "dark"] as const) {
      await theirs.emulateMedia({ colorScheme: theme });
      await theirs.goto("/admin/profiles");
      const people = theirs.getByRole("main");
      // The list is a table on a desktop and cards on a phone: the one on screen holds Nora.
      const nora = people.getByText(`${ONYX.person.firstName} ${ONYX.person.lastName}`);
      await expect(nora.filter({ visible: true }).first()).toBeVisible();
      await expect(people.getByText(`${SAFFRON.person.firstName} ${SAFFRON.person.lastName}`)).toHaveCount(0);
      await expectAccessible(theirs);
      await screenshot(theirs, `brand-administrator-people-${device}-${theme}`);
    }
  }

  // Their brand's look is theirs; adding or removing a brand is not.
  await theirs.goto("/admin/brands");
  await expect(theirs.getByRole("heading", { name: ONYX.brand.name })).toBeVisible();
  await expect(theirs.getByRole("heading", { name: SAFFRON.brand.name })).toHaveCount(0);
  await expect(theirs.getByRole("button", { name: "Add Brand" })).toHaveCount(0);
  await expect(theirs.getByRole("button", { name: `Delete ${ONYX.brand.name}` })).toHaveCount(0);
  await expectAccessible(theirs);
  await screenshot(theirs, "brand-administrator-brands-desktop-dark");

  // Their brand's card template: the brand's office on every card of it, at once.
  const office = "Onyx House, 1 Harbour Street";
  const template = theirs.getByRole("dialog", { name: `Card template of ${ONYX.brand.name}` });
  const officeValue = template.getByLabel(`Office on every card of ${ONYX.brand.name}`);
  await theirs.getByRole("button", { name: `Card template of ${ONYX.brand.name}` }).click();
  await officeValue.fill(office);
  await expectAccessible(theirs);
  await screenshot(theirs, "brand-template-desktop-dark");
  await template.getByRole("button", { name: "Save template" }).click();
  await expect(theirs.getByText(/^Template of Onyx Partners saved: \d+ cards? updated\.$/)).toBeVisible();
  const card = await theirs.request.get(`/profile/${ONYX.person.username}`);
  expect(await card.text()).toContain(office);
  // On a phone the template reads as a list, a field a row; emptied, members fill in their own again.
  await theirs.setViewportSize({ width: 390, height: 900 });
  await theirs.getByRole("button", { name: `Card template of ${ONYX.brand.name}` }).click();
  await screenshot(theirs, "brand-template-phone-dark");
  await officeValue.fill("");
  await template.getByRole("button", { name: "Save template" }).click();
  await expect(theirs.getByText(/^Template of Onyx Partners saved/)).toBeVisible();
  await theirs.setViewportSize({ width: 1280, height: 900 });

  // Their brand's figures: the brand is theirs alone, the period theirs to choose.
  await theirs.setViewportSize({ width: 390, height: 900 });
  await theirs.goto("/admin/analytics");
  const brand = theirs.getByLabel("Brand", { exact: true });
  await expect(brand.locator("option")).toHaveText([ONYX.brand.name]);
  await theirs.getByLabel("Period", { exact: true }).selectOption("7");
  await theirs.getByRole("button", { name: "Show" }).click();
  await expect(theirs.getByRole("heading", { name: "Views by Source (Last 7 Days)" })).toBeVisible();
  await expectAccessible(theirs);
  await screenshot(theirs, "brand-administrator-analytics-phone-dark");
  await theirs.setViewportSize({ width: 1280, height: 900 });

  // Another brand's card is not found; the whole site's settings are refused.
  const nav = theirs.getByRole("navigation", { name: "Main" }).first();
  await expect(nav.getByRole("link", { name: "People" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Settings" })).toHaveCount(0);
  const settings = await theirs.request.get("/admin/settings/general", { maxRedirects: 0 });
  expect(settings.status()).toBe(403);

  // The brand's page lists who runs it.
  await page.goto("/admin/brands");
  const onyx = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: ONYX.brand.name }) });
  await expect(onyx.getByText("Lena Lead")).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "brands-run-by-desktop-light");

  // Taken back: her next page is a member's again.
  await page.goto("/admin/profiles?q=lena.lead");
  await chooseAction(row, "Lena Lead", "Change brands they run…");
  await dialog.getByRole("checkbox", { name: ONYX.brand.name }).uncheck();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Lena Lead no longer runs a brand.")).toBeVisible();
  const after = await theirs.request.get("/admin/profiles", { maxRedirects: 0 });
  expect([after.status(), after.headers().location]).toEqual([302, "/directory"]);
});
