import type { Page } from "@playwright/test";
import { E2E_URL } from "../../playwright.config";
import {
  chooseAction,
  expect,
  expectAccessible,
  mailLink,
  screenshot,
  test,
  uniqueEmail,
  unsubscribeLink,
} from "./fixtures";
import { BRAND_CARDS } from "./people";

const NEW_PASSWORD = "violet harbour lantern";

/** An unclaimed card made by the administrator, as the create form sends it; its name is unique to the run. */
async function prepareCard(page: Page, firstName: string, companyBrandId = "") {
  const lastName = `Invitee${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  const email = uniqueEmail(firstName.toLowerCase());
  const response = await page.request.post("/admin/profiles/create", {
    multipart: { firstName, lastName, email, title: "Buyer", phone: "", bio: "", linkedinUrl: "", companyBrandId },
    headers: { origin: E2E_URL },
    maxRedirects: 0,
  });
  expect(response.status(), await response.text()).toBe(302);
  return { firstName, lastName, email, name: `${firstName} ${lastName}` };
}

/** Opens the mailed link in a browser that is not signed in, chooses a password, and lands on the card. */
async function claim(page: Page, link: string, name: string) {
  await page.goto(link);
  await expect(page.getByRole("heading", { name: /^Claim your .+ card$/ })).toBeVisible();
  await page.getByLabel("Password").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Claim my card and sign in" }).click();
  await expect(page).toHaveURL(/\/profile\/[^/]+$/);
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  await expect(page.getByText("Welcome! This card is yours now.")).toBeVisible();
}

test.describe("on a desktop", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("an administrator invites one person, who sets a password from the mail and lands signed in on their card", async ({
    page,
    login,
    newContext,
  }) => {
    await login("admin");
    const person = await prepareCard(page, "Ines");
    await page.goto(`/admin/profiles?q=${encodeURIComponent(person.lastName)}`);
    const row = page.getByRole("row").filter({ hasText: person.name });
    await expect(row.getByTestId("invitation-state")).toHaveText("Not invited");
    await chooseAction(row, person.name, "Invite");
    await expect(page.getByText("Invitation on its way to 1 person.")).toBeVisible();
    await expect(row.getByTestId("invitation-state")).toHaveText(/^Invited on \d{1,2} \w{3} \d{4}$/);
    await row.getByRole("button", { name: `Actions for ${person.name}` }).click();
    await expect(page.getByRole("menuitem", { name: "Remind" })).toBeVisible();
    await page.keyboard.press("Escape");

    // Inviting everyone asks first, saying how many and whom; cancelled, nothing is sent.
    const inviteAll = page.getByRole("button", { name: /^Invite all not yet invited \((\d+)\)$/ });
    const waiting = Number(/\((\d+)\)/.exec((await inviteAll.textContent()) ?? "")?.[1] ?? "0");
    // The seeded cards waiting to be claimed were never invited.
    expect(waiting).toBeGreaterThan(0);
    await inviteAll.click();
    // Other tests add cards meanwhile: the count is read, not assumed.
    const confirm = page.getByRole("alertdialog", { name: /^Invite \d+ (person|people)\?$/ });
    await expect(confirm).toContainText("Each gets a mail with a link to claim their card:");
    await expect(confirm.getByRole("button", { name: /^Send \d+ invitations?$/ })).toBeVisible();
    // The mail as it will arrive.
    await confirm.getByText("The mail they receive").click();
    const mail = confirm.frameLocator("iframe");
    await expect(mail.getByText(/has prepared a business card for you$/)).toBeVisible();
    // As each brand's members receive it: in the brand's name.
    await confirm.getByLabel("As received in").selectOption({ label: BRAND_CARDS.saffron.brand.name });
    await expect(
      mail.getByText(`${BRAND_CARDS.saffron.brand.name} has prepared a business card for you`),
    ).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, "invite-all-confirm-desktop-light");
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).toBeHidden();
    await expect(inviteAll).toHaveText(/^Invite all not yet invited \(\d+\)$/, { useInnerText: true });

    // The list filters by invitation state.
    await page.goto(`/admin/profiles?q=${encodeURIComponent(person.lastName)}&invitation=not-invited`);
    await expect(page.getByText("No profiles found")).toBeVisible();
    await page.goto(`/admin/profiles?q=${encodeURIComponent(person.lastName)}&invitation=invited`);
    await expect(page.getByRole("row").filter({ hasText: person.name })).toBeVisible();
    await expectAccessible(page);
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await screenshot(page, `invitations-admin-desktop-${theme}`);
    }

    const link = await mailLink(person.email);
    const visitor = await (await newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    for (const theme of ["light", "dark"] as const) {
      await visitor.emulateMedia({ colorScheme: theme });
      await visitor.goto(link);
      await screenshot(visitor, `invitation-page-desktop-${theme}`);
    }
    await expectAccessible(visitor);
    await claim(visitor, link, person.name);

    // The link worked once.
    await visitor.goto(link);
    await expect(visitor.getByRole("heading", { name: "This link did not work" })).toBeVisible();

    await page.goto(`/admin/profiles?q=${encodeURIComponent(person.lastName)}`);
    await expect(page.getByRole("row").filter({ hasText: person.name }).getByTestId("invitation-state")).toHaveText(
      "Claimed",
    );
  });
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("an administrator ticks two cards and invites them; one person claims from the phone", async ({
    page,
    login,
    newContext,
  }) => {
    await login("admin");
    const tag = `Pho${Date.now().toString(36)}`;
    // The second person's card is in a brand: its invitation page wears it.
    await page.goto("/directory");
    const saffron = BRAND_CARDS.saffron.brand.name;
    const brandId = await page
      .locator('select[name="brand"] option')
      .filter({ hasText: saffron })
      .getAttribute("value");
    const first = await prepareCard(page, `${tag}a`);
    const second = await prepareCard(page, `${tag}b`, brandId ?? "");
    await page.goto(`/admin/profiles?q=${encodeURIComponent(tag)}`);
    await expect(page.getByRole("table")).toBeHidden();
    for (const person of [first, second]) {
      await page.getByRole("checkbox", { name: `Select ${person.name}` }).check();
    }
    await page.getByRole("button", { name: "Invite selected" }).click();
    await expect(page.getByText("Invitation on its way to 2 people.")).toBeVisible();
    const items = page.getByRole("listitem").filter({ has: page.getByTestId("invitation-state") });
    await expect(items.getByTestId("invitation-state")).toHaveText([/^Invited on /, /^Invited on /]);
    await expectAccessible(page);
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await screenshot(page, `invitations-admin-phone-${theme}`);
    }

    const link = await mailLink(second.email);
    const phone = await (
      await newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
    ).newPage();
    for (const theme of ["light", "dark"] as const) {
      await phone.emulateMedia({ colorScheme: theme });
      await phone.goto(link);
      await expect(phone.getByRole("heading", { name: `Claim your ${saffron} card` })).toBeVisible();
      const preview = phone.getByRole("figure", { name: "Your card" });
      await expect(preview).toContainText(second.name);
      await expect(preview).toContainText(`Buyer${saffron}`);
      await screenshot(phone, `invitation-page-phone-${theme}`);
    }
    await expectAccessible(phone);
    await claim(phone, link, second.name);

    // The other person wants none of it: the link at the mail's foot asks, and the button stops the invitations.
    const stop = await unsubscribeLink(first.email);
    for (const theme of ["light", "dark"] as const) {
      await phone.emulateMedia({ colorScheme: theme });
      await phone.goto(stop);
      await expect(phone.getByRole("heading", { name: "Stop invitations?" })).toBeVisible();
      await screenshot(phone, `invitations-stop-phone-${theme}`);
    }
    await expectAccessible(phone);
    await phone.getByRole("button", { name: "Stop invitations" }).click();
    await expect(phone.getByRole("heading", { name: "Invitations stopped" })).toBeVisible();
    await expect(
      phone.getByRole("status").filter({ hasText: "No more invitations or reminders will be sent" }),
    ).toBeVisible();
    await screenshot(phone, "invitations-stopped-phone-dark");

    await page.goto(`/admin/profiles?q=${encodeURIComponent(tag)}`);
    const stateOf = (person: { name: string }) =>
      items.filter({ hasText: person.name }).getByTestId("invitation-state");
    await expect(stateOf(first)).toHaveText("Asked for no more invitations");
    await expect(stateOf(second)).toHaveText("Claimed");
    // Chosen for "Invite selected" anyway (the box also moves people between brands), they get nothing.
    await page.getByRole("checkbox", { name: `Select ${first.name}` }).check();
    await page.getByRole("button", { name: "Invite selected" }).click();
    await expect(page.getByText(/^Nobody was invited/)).toBeVisible();
  });
});

test("without JavaScript, inviting everyone asks first on the page, with the mail they receive, and Cancel sends nothing", async ({
  newContext,
  sessions,
}) => {
  const page = await (await newContext({ javaScriptEnabled: false, storageState: await sessions("admin") })).newPage();
  await page.goto("/admin/profiles");
  const inviteAll = page.getByRole("link", { name: /^Invite all not yet invited \(\d+\)$/ });
  const waiting = await inviteAll.textContent();
  await inviteAll.click();
  const question = page.getByRole("region", { name: /^Invite \d+ (person|people)\?$/ });
  await expect(question).toContainText("Each gets a mail with a link to claim their card:");
  await expect(question.getByRole("button", { name: /^Send \d+ invitations?$/ })).toBeVisible();
  await question.getByText("The mail they receive").click();
  await expect(question.frameLocator("iframe").getByText(/has prepared a business card for you$/)).toBeVisible();
  await question.getByRole("link", { name: "Cancel" }).click();
  await expect(question).toHaveCount(0);
  // Nobody was invited: as many wait as before, or more where other tests running beside this one added people.
  const count = (text: string | null) => Number(/\((\d+)\)$/.exec(text ?? "")?.[1] ?? Number.NaN);
  const after = await page.getByRole("link", { name: /^Invite all not yet invited/ }).textContent();
  expect(count(after)).toBeGreaterThanOrEqual(count(waiting));
});
