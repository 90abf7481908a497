import { execFileSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
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
  await page.goto("/admin/settings/security");
  await page.getByRole("link", { name: "Wallet passes" }).click();
  await expect(page.getByRole("heading", { name: "Wallet passes", level: 1 })).toBeVisible();
  await expect(page.getByRole("region", { name: "Google Wallet" }).getByText("Not set up")).toBeVisible();
  await expect(page.getByRole("region", { name: "Apple Wallet" }).getByText("Not set up")).toBeVisible();
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

  await page.getByRole("region", { name: "Google Wallet" }).getByRole("button", { name: "Remove" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Remove Google Wallet" }).click();
  await expect(page.getByText("Google Wallet is removed")).toBeVisible();
  await member.reload();
  await expect(member.getByRole("heading", { name: "Share my card", level: 1 })).toBeVisible();
  await expect(member.getByRole("link", { name: "Save to Google Wallet" })).toHaveCount(0);
});

test("an administrator sets up Apple Wallet with the company's certificates, and a member adds their card as a signed pass", async ({
  page,
  login,
  newContext,
  sessions,
}) => {
  // A stand-in for Apple's WWDR authority and a pass type certificate it issued, made by OpenSSL.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "namecard-e2e-pkpass-"));
  const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "ignore" });
  openssl(
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    "wwdr.key",
    "-out",
    "wwdr.pem",
    "-days",
    "30",
    "-subj",
    "/CN=Test WWDR/O=Test",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
  );
  openssl("x509", "-in", "wwdr.pem", "-outform", "DER", "-out", "wwdr.cer");
  openssl(
    "req",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    "signer.key",
    "-out",
    "signer.csr",
    "-subj",
    "/UID=pass.com.example.e2e/CN=Pass Type ID: pass.com.example.e2e/OU=E2E1234567/O=Example",
  );
  openssl(
    "x509",
    "-req",
    "-in",
    "signer.csr",
    "-CA",
    "wwdr.pem",
    "-CAkey",
    "wwdr.key",
    "-CAcreateserial",
    "-out",
    "signer.pem",
    "-days",
    "30",
  );
  openssl(
    "pkcs12",
    "-export",
    "-inkey",
    "signer.key",
    "-in",
    "signer.pem",
    "-out",
    "signer.p12",
    "-passout",
    "pass:e2e",
  );

  await login("admin");
  await page.goto("/admin/settings/wallet");
  const apple = page.getByRole("region", { name: "Apple Wallet" });
  await apple.getByLabel("Pass type identifier").fill("pass.com.example.e2e");
  await apple.getByLabel("Team identifier").fill("E2E1234567");
  await apple.getByLabel("Pass type certificate (.p12)").setInputFiles(path.join(dir, "signer.p12"));
  await apple.getByLabel("The .p12 file's password").fill("e2e");
  await apple.getByLabel("Apple's WWDR certificate (.cer)").setInputFiles(path.join(dir, "wwdr.cer"));
  await apple.getByRole("button", { name: "Save Apple Wallet" }).click();
  await expect(page.getByText("Apple Wallet is set up: members can add their cards to it.")).toBeVisible();
  await expect(apple.getByText("Pass Type ID: pass.com.example.e2e")).toBeVisible();
  await expect(apple.getByText("Set up", { exact: true })).toBeVisible();
  expect(await page.content()).not.toContain("PRIVATE KEY");
  await screenshot(page, "wallet-apple-desktop-light");

  const member = await (await newContext({ storageState: await sessions("member") })).newPage();
  await member.goto("/share");
  await expect(member.getByRole("link", { name: "Add to Apple Wallet" })).toHaveAttribute(
    "href",
    "/share/apple-wallet.pkpass",
  );
  const pass = await member.request.get("/share/apple-wallet.pkpass");
  expect(pass.status()).toBe(200);
  expect(pass.headers()["content-type"]).toBe("application/vnd.apple.pkpass");
  // A zip: its first bytes say so.
  expect((await pass.body()).subarray(0, 2).toString()).toBe("PK");
  await member.setViewportSize({ width: 390, height: 844 });
  await screenshot(member, "share-wallet-phone-light");

  await apple.getByRole("button", { name: "Remove" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Remove Apple Wallet" }).click();
  await expect(page.getByText("Apple Wallet is removed")).toBeVisible();
  expect((await member.request.get("/share/apple-wallet.pkpass")).status()).toBe(404);
  fs.rmSync(dir, { recursive: true, force: true });
});
