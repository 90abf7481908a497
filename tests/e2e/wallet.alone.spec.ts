import { generateKeyPairSync } from "node:crypto";
import { expect, expectAccessible, screenshot, test } from "./fixtures";

/**
 * An administrator sets up Google Wallet with the company's service-account
 * key; a member then finds "Save to Google Wallet" on their Share page, whose
 * link leads to Google with their signed pass; removed, the button goes.
 */

test("an administrator sets up Google Wallet, and a member's Share page offers their pass", async ({
  page,
  login,
  newContext,
  sessions,
}) => {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const keyFile = JSON.stringify({
    type: "service_account",
    private_key_id: "e2e-key",
    private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    client_email: "wallet@namecard-e2e.iam.gserviceaccount.com",
  });
  await login("admin");
  await page.goto("/admin/settings?tab=security");
  await page.getByRole("link", { name: "Wallet passes" }).click();
  await expect(page.getByRole("heading", { name: "Wallet passes", level: 1 })).toBeVisible();
  await expect(page.getByRole("region", { name: "Google Wallet" }).getByText("Not set up")).toBeVisible();
  await expect(page.getByRole("region", { name: "Apple Wallet" }).getByText("Not set up")).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "wallet-settings-desktop-light");
  await page.getByLabel("Issuer ID").fill("3388000000022334455");
  await page.getByLabel("Service account's JSON key").fill(keyFile);
  await page.getByRole("button", { name: "Save Google Wallet" }).click();
  await expect(page.getByText("Google Wallet is set up: members can save their cards to it.")).toBeVisible();
  await expect(page.getByText("wallet@namecard-e2e.iam.gserviceaccount.com")).toBeVisible();
  // The key is never shown again.
  await expect(page.getByLabel("Replace the service account's JSON key")).toHaveValue("");
  expect(await page.content()).not.toContain("PRIVATE KEY");
  await expectAccessible(page);
  await screenshot(page, "wallet-settings-desktop-light");
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, "wallet-settings-phone-dark");
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: "light" });

  const member = await (await newContext({ storageState: await sessions("member") })).newPage();
  await member.goto("/share");
  const save = member.getByRole("link", { name: "Save to Google Wallet" });
  await expect(save).toHaveAttribute("href", "/share/google-wallet");
  const answer = await member.request.get("/share/google-wallet", { maxRedirects: 0 });
  expect(answer.status()).toBe(302);
  expect(answer.headers().location).toMatch(/^https:\/\/pay\.google\.com\/gp\/v\/save\/[\w-]+\.[\w-]+\.[\w-]+$/);

  await page.getByRole("button", { name: "Remove" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Remove Google Wallet" }).click();
  await expect(page.getByText("Google Wallet is removed")).toBeVisible();
  await member.reload();
  await expect(member.getByRole("heading", { name: "Share my card", level: 1 })).toBeVisible();
  await expect(member.getByRole("link", { name: "Save to Google Wallet" })).toHaveCount(0);
});
