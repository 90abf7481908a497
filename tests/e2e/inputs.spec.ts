import { expect, expectAccessible, test } from "./fixtures";

test("a card made for Işıl Çağdaş gets isil.cagdas, and their number with an extension dials and saves the extension", async ({
  page,
  login,
}) => {
  await login("admin");
  await page.goto("/admin/profiles/create");
  await page.getByLabel("First name").fill("Işıl");
  await page.getByLabel("Last name").fill("Çağdaş");
  await page.getByLabel("Email", { exact: true }).fill("isil.cagdas@example.org");
  await page.getByLabel("Phone", { exact: true }).fill("+49 30 1234 5678 ext. 9999");
  await page.getByRole("button", { name: "Create Profile" }).click();
  await expect(page).toHaveURL(/\/admin\/profiles$/);

  await page.goto("/profile/isil.cagdas");
  await expect(page.getByRole("heading", { level: 1, name: "Işıl Çağdaş" })).toBeVisible();
  await expect(page.getByText("@isil.cagdas")).toBeVisible();
  const phone = page.getByRole("link", { name: /Phone/ });
  await expect(phone).toContainText("+49 30 1234 5678 ext. 9999");
  await expect(phone).toHaveAttribute("href", "tel:+493012345678;ext=9999");
  await expectAccessible(page);

  // The demo card of Elif Yılmaz keeps every letter too.
  await page.goto("/profile/elif.yilmaz");
  await expect(page.getByRole("heading", { level: 1, name: "Elif Yılmaz" })).toBeVisible();

  const file = await page.request.get("/profile/isil.cagdas/contact.vcf");
  expect(file.status()).toBe(200);
  expect(await file.text()).toContain("\r\nTEL;TYPE=CELL:+49 30 1234 5678;ext=9999\r\n");
});
