import { expect, expectAccessible, screenshot, test, uniqueEmail } from "./fixtures";

/**
 * An administrator connects the company's identity provider for provisioning
 * in Settings: the token is shown once beside the SCIM address, the provider
 * makes a card with it, the administrator maps the provider's group to a brand
 * and finally revokes the token, which stops working at once.
 */

test("an administrator creates a provisioning connection, sees its token once, maps a group to a brand and revokes it", async ({
  page,
  login,
  request,
}) => {
  await login("admin");
  await page.goto("/admin/settings/security");
  await page.getByRole("link", { name: "Provisioning" }).click();
  await expect(page.getByRole("heading", { name: "Provisioning", level: 1 })).toBeVisible();
  // What the provider's attributes become, on the screen rather than only in the guide.
  const read = page.getByRole("region", { name: "What Namecard reads from your provider" });
  await expect(read.getByRole("row", { name: "title Job title" })).toBeVisible();
  const name = `Entra ID ${Math.random().toString(36).slice(2, 6)}`;
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Create connection" }).click();
  await expect(page.getByRole("heading", { name: `${name} is connected` })).toBeVisible();
  const token = await page.getByLabel("Bearer token (secret token)").inputValue();
  const base = await page.getByLabel("SCIM base URL (tenant URL)").first().inputValue();
  expect(token).toMatch(/^namecard_scim_/);
  await expectAccessible(page);
  await screenshot(page, "provisioning-token-desktop");

  // The provider provisions a person and puts them in a group.
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/scim+json" };
  const email = uniqueEmail("provisioned");
  const user = await request.post(`${base}/Users`, {
    headers,
    data: { userName: email, name: { givenName: "Priya", familyName: "Provisioned" }, title: "Analyst" },
  });
  expect(user.status()).toBe(201);
  const userId = (await user.json()).id as string;
  const group = await request.post(`${base}/Groups`, {
    headers,
    data: { displayName: `Sales ${name}`, members: [{ value: userId }] },
  });
  expect(group.status()).toBe(201);

  // The token is gone from the page once it is left; the connection lists its person and its group.
  await page.reload();
  await expect(page.getByRole("heading", { name: `${name} is connected` })).toHaveCount(0);
  const card = page.getByRole("article").filter({ hasText: name });
  await expect(card.getByText("1 person provisioned")).toBeVisible();
  await card.getByLabel(`Sales ${name}`).selectOption({ label: "Saffron Studio" });
  await card.getByRole("button", { name: `Save the brand of Sales ${name}` }).click();
  await expect(page.getByText("The group's members now carry its brand on their cards.")).toBeVisible();
  await card.getByText("Recent changes").click();
  await expect(card.getByText("Created Priya Provisioned")).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "provisioning-connection-desktop");
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, "provisioning-phone-dark");
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: "light" });

  await card.getByRole("button", { name: `Revoke ${name}` }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText("The card it provisioned stays as it is.");
  await dialog.getByRole("button", { name: "Revoke token" }).click();
  await expect(page.getByText(`${name} is revoked: its token no longer works.`)).toBeVisible();
  await expect(card.getByText("Revoked", { exact: true })).toBeVisible();
  expect((await request.get(`${base}/Users`, { headers })).status()).toBe(401);
});
