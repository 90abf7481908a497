import fs from "node:fs";
import type { Page } from "@playwright/test";
import { chooseAction, expect, expectAccessible, failedLoad, screenshot, test } from "./fixtures";

/**
 * An administrator switches a card off and on again from Manage Profiles, on a
 * desktop and on a phone, with and without JavaScript, and reads what they did
 * in the audit log. Each test prepares a card of its own.
 */

let serial = 0;
function newPerson() {
  serial++;
  const tag = `${Date.now().toString(36)}${process.pid}${serial}`;
  return {
    firstName: "Dora",
    lastName: "Departing",
    username: `dora.departing.${tag}`,
    email: `dora.departing.${tag}@example.org`,
  };
}

async function createCard(page: Page, person: ReturnType<typeof newPerson>) {
  await page.goto("/admin/profiles/create");
  await page.getByLabel("First name").fill(person.firstName);
  await page.getByLabel("Last name").fill(person.lastName);
  await page.getByLabel("Email", { exact: true }).fill(person.email);
  await page.getByLabel("Username").fill(person.username);
  await page.getByRole("button", { name: "Create Profile" }).click();
  await expect(page.getByText(`Profile created for ${person.firstName} ${person.lastName}.`)).toBeVisible();
}

test("the administrator deactivates a card on a desktop, visitors get a calm 410 page, and the audit log shows it", async ({
  page,
  login,
  newContext,
  expectConsoleError,
}) => {
  test.slow();
  await page.setViewportSize({ width: 1440, height: 900 });
  await login("admin");
  const person = newPerson();
  const name = `${person.firstName} ${person.lastName}`;
  await createCard(page, person);

  await page.goto(`/admin/profiles?q=${person.username}`);
  const row = page.getByRole("row", { name: new RegExp(person.username) });
  await expect(row.getByTestId("invitation-state")).toHaveText("Not invited");
  await chooseAction(row, name, "Deactivate card…");
  const confirm = page.getByRole("alertdialog");
  await expect(confirm.getByText(`Deactivate ${name}'s card?`)).toBeVisible();
  await expect(confirm.getByText(/Views and history are kept/)).toBeVisible();
  await confirm.getByRole("button", { name: "Deactivate Card" }).click();
  await expect(page.getByText(`${name}'s card was deactivated`)).toBeVisible();
  await expect(row.getByText("Deactivated", { exact: true })).toBeVisible();
  await row.getByRole("button", { name: `Actions for ${name}` }).click();
  await expect(page.getByRole("menuitem", { name: "Reactivate card" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expectAccessible(page);
  await screenshot(page, "offboarding-profiles-desktop-light");

  // The state filter: only deactivated cards, then only active ones.
  await page.locator("#admin-state").selectOption("deactivated");
  await expect(page).toHaveURL(/state=deactivated/);
  await expect(row).toBeVisible();
  await page.locator("#admin-state").selectOption("active");
  await expect(page.getByText("No profiles found")).toBeVisible();

  // A visitor who opens the card's address gets the calm page, in the product's frame.
  const card = `/profile/${person.username}`;
  expectConsoleError(failedLoad(410, card));
  const visitor = await (await newContext()).newPage();
  const answer = await visitor.goto(card);
  expect(answer?.status()).toBe(410);
  await expect(visitor.getByRole("heading", { name: "This card is no longer active" })).toBeVisible();
  await expect(visitor.getByText(person.email)).toHaveCount(0);
  await expectAccessible(visitor);
  await screenshot(visitor, "offboarding-gone-desktop-light");
  await visitor.emulateMedia({ colorScheme: "dark" });
  await visitor.reload();
  await expect(visitor.getByRole("heading", { name: "This card is no longer active" })).toBeVisible();
  await screenshot(visitor, "offboarding-gone-desktop-dark");

  // The audit log, from the navigation: the creation and the deactivation, filtered and exported.
  await page.getByRole("link", { name: "Audit Log" }).first().click();
  await expect(page.getByRole("heading", { name: "Audit Log" })).toBeVisible();
  await page.getByPlaceholder("Search by name, username or brand...").fill(person.username);
  await expect(page).toHaveURL(new RegExp(`q=${person.username.replace(/\./g, "\\.")}`));
  const entries = page.getByTestId("audit-entry");
  await expect(entries).toHaveCount(2);
  await expect(entries.nth(0)).toContainText(`Deactivated profile ${name} (@${person.username})`);
  await expect(entries.nth(0)).toContainText("state: active → deactivated");
  await expect(entries.nth(0)).toContainText("admin@example.com");
  await expect(entries.nth(1)).toContainText(`email: — → ${person.email}`);
  await page.locator("#audit-action").selectOption("deactivate");
  await expect(entries).toHaveCount(1);
  await expectAccessible(page);
  await screenshot(page, "offboarding-audit-desktop-light");
  await page.emulateMedia({ colorScheme: "dark" });
  await page.reload();
  await expect(entries).toHaveCount(1);
  await screenshot(page, "offboarding-audit-desktop-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await page.reload();
  await expect(entries).toHaveCount(1);

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^namecard-audit-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await fs.promises.readFile(await file.path(), "utf8");
  expect(csv).toContain(`"deactivate","profile"`);
  expect(csv).toContain(`(@${person.username})`);
  expect(csv).not.toContain(`,"create",`);

  // Nothing matches: the empty state says so.
  await page.locator("#audit-action").selectOption("remind");
  await expect(page.getByText("No entries found")).toBeVisible();

  // The setting for what a deactivated card's address shows, on the General tab.
  await page.goto("/admin/settings");
  await expect(page.getByRole("radio", { name: "A page saying the card is no longer active" })).toBeChecked();
  await screenshot(page, "offboarding-settings-desktop-light");
  await page.emulateMedia({ colorScheme: "dark" });
  await page.reload();
  await expect(page.getByRole("radio", { name: "A redirect to the card's brand website" })).not.toBeChecked();
  await screenshot(page, "offboarding-settings-desktop-dark");
});

test("the administrator reactivates a card on a phone and reads the audit log there", async ({
  page,
  login,
  newContext,
  expectConsoleError,
}) => {
  test.slow();
  await page.setViewportSize({ width: 390, height: 844 });
  await login("admin");
  const person = newPerson();
  const name = `${person.firstName} ${person.lastName}`;
  await createCard(page, person);
  await page.goto(`/admin/profiles?q=${person.username}`);
  const item = page.getByRole("listitem").filter({ hasText: person.email });
  await chooseAction(item, name, "Deactivate card…");
  await page.getByRole("alertdialog").getByRole("button", { name: "Deactivate Card" }).click();
  await expect(page.getByText(`${name}'s card was deactivated`)).toBeVisible();
  await expect(item.getByText("Deactivated", { exact: true })).toBeVisible();
  await screenshot(page, "offboarding-profiles-phone-light");
  await page.emulateMedia({ colorScheme: "dark" });
  await page.reload();
  await expect(item.getByText("Deactivated", { exact: true })).toBeVisible();
  await screenshot(page, "offboarding-profiles-phone-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await page.reload();

  const qr = `/qr/${person.username}`;
  expectConsoleError(failedLoad(410, qr));
  const visitor = await (await newContext({ viewport: { width: 390, height: 844 } })).newPage();
  expect((await visitor.goto(qr))?.status()).toBe(410);
  await expect(visitor.getByRole("heading", { name: "This card is no longer active" })).toBeVisible();
  await screenshot(visitor, "offboarding-gone-phone-light");

  // Reactivating needs no confirmation: the card is back at once.
  await chooseAction(item, name, "Reactivate card");
  await expect(page.getByText(`${name}'s card is active again.`)).toBeVisible();
  await expect(item.getByTestId("invitation-state")).toHaveText("Not invited");
  expect((await visitor.goto(qr))?.status()).toBe(200);
  await expect(visitor.getByText(name).first()).toBeVisible();

  await page.goto(`/admin/audit?q=${person.username}`);
  const entries = page.getByTestId("audit-entry");
  await expect(entries).toHaveCount(3);
  await expect(entries.nth(0)).toContainText("Reactivated profile");
  await expectAccessible(page);
  await screenshot(page, "offboarding-audit-phone-light");
  await page.emulateMedia({ colorScheme: "dark" });
  await page.reload();
  await expect(entries).toHaveCount(3);
  await screenshot(page, "offboarding-audit-phone-dark");

  await page.goto("/admin/settings");
  await expect(page.getByRole("radio", { name: "A redirect to the card's brand website" })).toBeVisible();
  await screenshot(page, "offboarding-settings-phone-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await page.reload();
  await expect(page.getByRole("radio", { name: "A redirect to the card's brand website" })).toBeVisible();
  await screenshot(page, "offboarding-settings-phone-light");
});

test("without JavaScript, deactivating and reactivating are plain forms", async ({
  page,
  login,
  sessions,
  newContext,
}) => {
  await login("admin");
  const person = newPerson();
  const name = `${person.firstName} ${person.lastName}`;
  await createCard(page, person);
  const plain = await (await newContext({ javaScriptEnabled: false, storageState: await sessions("admin") })).newPage();
  await plain.goto(`/admin/profiles?q=${person.username}`);
  const row = plain.getByRole("row", { name: new RegExp(person.username) });
  await row.getByRole("button", { name: `Deactivate ${name}` }).click();
  await expect(plain.getByText(`${name}'s card was deactivated`)).toBeVisible();
  await expect(row.getByText("Deactivated", { exact: true })).toBeVisible();
  await row.getByRole("button", { name: `Reactivate ${name}` }).click();
  await expect(plain.getByText(`${name}'s card is active again.`)).toBeVisible();
  await expect(row.getByTestId("invitation-state")).toHaveText("Not invited");
});
