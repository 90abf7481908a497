import { expect, expectAccessible, failedLoad, screenshot, switchScheme, test } from "./fixtures";
import { RENAMED_CARD } from "./people";

test("after a username change the old card, QR page and files redirect, nobody else can take the old name, and taking it back never loops", async ({
  page,
  login,
  expectConsoleError,
}) => {
  test.slow();
  // The refused form answers 400 with its message.
  expectConsoleError(failedLoad(400, "/admin/profiles/create.data"));
  const old = RENAMED_CARD.username;
  const renamed = "rhea.fieldwork";
  await login("admin");
  await page.goto(`/admin/profiles?q=${RENAMED_CARD.lastName}`);
  const name = `${RENAMED_CARD.firstName} ${RENAMED_CARD.lastName}`;
  await page
    .getByRole("button", { name: `Edit ${name}` })
    .first()
    .click();
  const dialog = page.getByRole("dialog", { name: `Edit Profile: ${name}` });
  await dialog.getByLabel("Username").fill(renamed);
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText(`Profile updated successfully for ${name}!`)).toBeVisible();

  // A redirect for every old address, query kept (a printed QR code's ?src=qr), which no browser stores.
  for (const [from, to] of [
    [`/profile/${old}?src=qr`, `/profile/${renamed}?src=qr`],
    [`/qr/${old}`, `/qr/${renamed}`],
    [`/profile/${old}/contact.vcf`, `/profile/${renamed}/contact.vcf`],
    [`/profile/${old}/qr.png`, `/profile/${renamed}/qr.png`],
  ] as const) {
    const response = await page.request.get(from, { maxRedirects: 0 });
    expect(response.status(), from).toBe(307);
    expect(response.headers().location, from).toBe(to);
    expect(response.headers()["cache-control"], from).toBe("no-store");
  }

  // A visitor who scans the old code lands on the card.
  await page.goto(`/profile/${old}?src=qr`);
  await expect(page).toHaveURL(new RegExp(`/profile/${renamed.replace(".", "\\.")}\\?src=qr$`));
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await page.goto(`/qr/${old}`);
  await expect(page).toHaveURL(new RegExp(`/qr/${renamed.replace(".", "\\.")}$`));
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

  // The old name stays the card's while it redirects.
  await page.goto("/admin/profiles/create");
  await page.getByLabel("First name").fill("Rival");
  await page.getByLabel("Last name").fill("Taker");
  await page.getByLabel("Username").fill(old);
  await page.getByLabel("Email", { exact: true }).fill("rival.taker@example.org");
  await page.getByRole("button", { name: "Create Profile" }).click();
  await expect(
    page
      .getByTestId("error-summary")
      .getByRole("link", { name: "Username already exists. Please choose a different one." }),
  ).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "username-taken-by-redirect-desktop-light");

  // The card takes its old name back: this browser, which followed old → new, now opens both without a loop.
  await page.goto(`/admin/profiles?q=${RENAMED_CARD.lastName}`);
  await page
    .getByRole("button", { name: `Edit ${name}` })
    .first()
    .click();
  const back = page.getByRole("dialog", { name: `Edit Profile: ${name}` });
  await back.getByLabel("Username").fill(old);
  await back.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText(`Profile updated successfully for ${name}!`)).toBeVisible();
  await page.goto(`/profile/${old}`);
  await expect(page).toHaveURL(new RegExp(`/profile/${old.replace(".", "\\.")}$`));
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await page.goto(`/profile/${renamed}`);
  await expect(page).toHaveURL(new RegExp(`/profile/${old.replace(".", "\\.")}$`));

  // The administrator lets the other name go: it no longer leads to the card.
  await page.goto(`/admin/profiles?q=${RENAMED_CARD.lastName}`);
  await page
    .getByRole("button", { name: `Edit ${name}` })
    .first()
    .click();
  const edit = page.getByRole("dialog", { name: `Edit Profile: ${name}` });
  await expect(edit.getByRole("heading", { name: "Earlier names" })).toBeVisible();
  await edit.getByText(`@${renamed}`).scrollIntoViewIfNeeded();
  for (const scheme of ["light", "dark"] as const) {
    await switchScheme(page, scheme);
    await screenshot(page, `old-usernames-desktop-${scheme}`);
  }
  await expectAccessible(page);
  await edit.getByRole("button", { name: `Release @${renamed}` }).click();
  await expect(page.getByText(`${renamed} is free: it no longer leads to this card.`)).toBeVisible();
  expectConsoleError(failedLoad(404, `/profile/${renamed}`));
  await page.goto(`/profile/${renamed}`);
  await expect(page).toHaveURL(new RegExp(`/profile/${renamed.replace(".", "\\.")}$`));
});
