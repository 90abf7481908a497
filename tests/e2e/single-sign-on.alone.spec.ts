import { startOidcProvider, type TestProvider } from "../support/oidc-provider";
import { TestSamlIdp, TRANSIENT_FORMAT } from "../support/saml-idp";
import { expect, expectAccessible, screenshot, switchScheme, test } from "./fixtures";

/**
 * The company's identity provider, a real OpenID Connect server on
 * 127.0.0.1 (oidc-provider) or a real SAML one (samlify), connected from
 * Settings by an administrator and used by colleagues from the sign-in page,
 * on a desktop and on a phone.
 */

let idp: TestProvider;

test.beforeAll(async () => {
  idp = await startOidcProvider();
});

test.afterAll(async () => {
  await idp.close();
});

test("an administrator connects the company's provider in Settings; a colleague who types their address is sent there and comes back signed in, with or without JavaScript", async ({
  page,
  login,
  newContext,
}) => {
  const client = idp.addClient();
  await login("admin");
  await page.goto("/admin/settings/security");
  await page.getByRole("link", { name: "Set up single sign-on" }).click();
  await expect(page.getByRole("heading", { name: "Single sign-on", level: 1 })).toBeVisible();
  await expect(page.getByText("No provider yet")).toBeVisible();
  client.redirectTo(await page.getByLabel("Redirect URL").inputValue());
  await page.getByLabel("Display name").fill("Acme Login");
  await page.getByLabel("Issuer URL").fill(idp.issuer);
  await page.getByLabel("Client ID").fill(client.clientId);
  await page.getByLabel("Client secret").fill(client.clientSecret);
  await page.getByLabel("Email domains").fill("sso.example.org");
  await page.getByLabel("Require single sign-on for these domains").check();
  await page.getByRole("button", { name: "Add provider" }).click();
  await expect(page.getByText("Acme Login is saved.")).toBeVisible();
  // The form is empty again for the next provider: the secret is not left in it.
  await expect(page.getByLabel("Client secret")).toHaveValue("");
  const card = page.getByRole("article").filter({ hasText: "Acme Login" });
  await expect(card.getByText("Required")).toBeVisible();
  await expect(card.getByRole("list", { name: "Domains" })).toHaveText("sso.example.org");
  await expectAccessible(page);
  await screenshot(page, "single-sign-on-desktop");
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, "single-sign-on-phone-dark");
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: "light" });

  // The administrator tests the provider first: what it sends, and what a real sign-in would do.
  idp.signInAs("sub-ada-test", {
    email: "ada.test@sso.example.org",
    email_verified: true,
    given_name: "Ada",
    family_name: "Tester",
    title: "Integration Lead",
  });
  await card.getByRole("button", { name: "Test sign-in with Acme Login" }).click();
  const result = page.getByRole("region", { name: "Test sign-in with Acme Login" });
  await expect(result).toBeVisible();
  await expect(
    result.getByText("A real sign-in would make a Namecard account and a card for this person, and sign them in."),
  ).toBeVisible();
  await expect(result.getByText("Integration Lead").first()).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "single-sign-on-test-desktop");
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, "single-sign-on-test-phone-dark");
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: "light" });

  // On a desktop, the address is enough: the password steps aside for the provider.
  idp.signInAs("sub-grace", {
    email: "grace@sso.example.org",
    given_name: "Grace",
    family_name: "Hopper",
    title: "Rear Admiral",
  });
  const desktop = await (await newContext()).newPage();
  await desktop.goto("/auth");
  await desktop.getByLabel("Email").fill("grace@sso.example.org");
  await expect(desktop.getByLabel("Password")).toBeHidden();
  await expect(desktop.getByText("Your company signs you in with Acme Login.", { exact: true })).toBeVisible();
  await expectAccessible(desktop);
  await screenshot(desktop, "auth-single-sign-on-desktop");
  await desktop.getByRole("button", { name: "Continue with Acme Login" }).click();
  await expect(desktop).toHaveURL(/\/$/);
  await expect(desktop.getByRole("heading", { name: "Welcome, Grace!" })).toBeVisible();

  // On a phone without JavaScript: the same press, the same way back.
  idp.signInAs("sub-linus", { email: "linus@sso.example.org", given_name: "Linus", family_name: "Torvalds" });
  const phone = await (
    await newContext({
      javaScriptEnabled: false,
      viewport: { width: 390, height: 844 },
      isMobile: true,
      colorScheme: "dark",
    })
  ).newPage();
  await phone.goto("/auth?redirectTo=%2Fdirectory");
  await expect(phone.getByRole("button", { name: "Sign in with Acme Login" })).toBeVisible();
  await screenshot(phone, "auth-single-sign-on-phone");
  await phone.getByLabel("Email").fill("linus@sso.example.org");
  await phone.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(phone).toHaveURL(/\/directory$/);
  await expect(phone.getByRole("heading", { name: "Directory", level: 1 })).toBeVisible();
  // Their name is in the account menu, folded away on a phone.
  await expect(phone.getByText("Linus Torvalds").first()).toBeAttached();

  // Removed, the provider is gone from the sign-in page: the password is back.
  await page.reload();
  await card.getByRole("button", { name: "Remove Acme Login" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Remove provider" }).click();
  await expect(page.getByText("Acme Login is removed.")).toBeVisible();
  await expect(page.getByText("No provider yet")).toBeVisible();
});

test("an administrator connects a SAML provider by pasting its metadata; colleagues sign in through it on a phone, and on a desktop without JavaScript", async ({
  page,
  login,
  newContext,
}) => {
  await login("admin");
  await page.goto("/admin/settings/single-sign-on");
  await page.getByRole("link", { name: "SAML 2.0" }).click();
  await expect(page.getByLabel("Provider metadata (XML)")).toBeVisible();
  const saml = await new TestSamlIdp({
    entityId: await page.getByLabel("Entity ID (audience)").inputValue(),
    acsUrl: await page.getByLabel("Assertion consumer service (ACS) URL").inputValue(),
  }).listen();
  try {
    await page.getByLabel("Display name").fill("Acme SAML");
    await page.getByLabel("Provider metadata (XML)").fill(saml.metadata());
    await page.getByLabel("Email domains").fill("saml.example.org");
    await page.getByRole("button", { name: "Add provider" }).click();
    await expect(page.getByText("Acme SAML is saved.")).toBeVisible();
    const card = page.getByRole("article").filter({ hasText: "Acme SAML" });
    await expect(card.getByText("SAML 2.0")).toBeVisible();
    await expect(card.getByText(/^Signing certificate [0-9A-F:]+…, valid until/)).toBeVisible();
    await page.getByRole("link", { name: "SAML 2.0" }).click();
    await expectAccessible(page);
    for (const scheme of ["light", "dark"] as const) {
      await switchScheme(page, scheme);
      await screenshot(page, `single-sign-on-saml-desktop-${scheme}`);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, "single-sign-on-saml-phone-dark");

    // On a phone: the button, the provider's page, and back signed in.
    saml.person = { nameId: "mary@saml.example.org", attributes: { givenName: "Mary", sn: "Jackson" } };
    const phone = await (
      await newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
    ).newPage();
    await phone.goto("/auth");
    await phone.getByRole("button", { name: "Sign in with Acme SAML" }).click();
    await expect(phone.getByRole("heading", { name: "Acme sign-in" })).toBeVisible();
    await phone.getByRole("button", { name: "Continue" }).click();
    await expect(phone.getByRole("heading", { name: "Welcome, Mary!" })).toBeVisible();

    // A sign-in the provider answers with a NameID that changes every time: the person reads a short
    // message, and the administrator's screen says what happened and what to change at the provider.
    saml.person = {
      nameId: "_transient-1",
      nameIdFormat: TRANSIENT_FORMAT,
      attributes: { mail: "t@saml.example.org" },
    };
    const refused = await (await newContext()).newPage();
    await refused.goto("/auth");
    await refused.getByRole("button", { name: "Sign in with Acme SAML" }).click();
    await refused.getByRole("button", { name: "Continue" }).click();
    await expect(refused.getByText("Your company's sign-in could not be completed.", { exact: false })).toBeVisible();
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.reload();
    const failures = card.getByRole("region", { name: "Recent failed sign-ins" });
    await expect(
      failures.getByText("The provider sent a transient NameID, which changes at every sign-in."),
    ).toBeVisible();
    await expect(
      failures.getByText("Set the NameID format for Namecard to persistent (or emailAddress) at the provider."),
    ).toBeVisible();
    await expectAccessible(page);
    for (const scheme of ["light", "dark"] as const) {
      await switchScheme(page, scheme);
      await screenshot(page, `single-sign-on-failures-desktop-${scheme}`);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, "single-sign-on-failures-phone-dark");

    // On a desktop without JavaScript: the typed address leads there, and a button brings the answer back.
    saml.person = { nameId: "katherine@saml.example.org", attributes: { givenName: "Katherine", sn: "Johnson" } };
    const desktop = await (await newContext({ javaScriptEnabled: false })).newPage();
    await desktop.goto("/auth?redirectTo=%2Fdirectory");
    await desktop.getByLabel("Email").fill("katherine@saml.example.org");
    await desktop.getByRole("button", { name: "Sign In", exact: true }).click();
    await desktop.getByRole("button", { name: "Continue" }).click();
    await desktop.getByRole("button", { name: "Back to Namecard" }).click();
    await expect(desktop).toHaveURL(/\/directory$/);
    await expect(desktop.getByRole("heading", { name: "Directory", level: 1 })).toBeVisible();
  } finally {
    await saml.close();
  }
});
