import { htmlPartOf } from "../support/outbox";
import { present } from "../support/present";
import { unreadableText } from "./contrast";
import { expect, newestMailTo, screenshot, test } from "./fixtures";
import { BRAND_CARDS } from "./people";

/**
 * Mail as its reader sees it: every mail is drawn in its sender's colours, and
 * axe never opens one, so each is rendered here in Chromium and every text and
 * button measured against what it sits on, for brands at both ends of the
 * range (white and black) and the hard middle (amber, near-black).
 */

test("every invitation reads in its brand's colours, from white to black: the preview per brand, and the test mail as it arrives", async ({
  page,
  login,
  context,
}) => {
  test.slow();
  await login("admin");
  const suffix = `${test.info().workerIndex}-${Date.now()}`;
  const ends = { white: `Snow Works ${suffix}`, black: `Midnight Works ${suffix}` };
  for (const [name, color] of [
    [ends.white, "#ffffff"],
    [ends.black, "#000000"],
  ] as const) {
    const fields = { intent: "create", name, primaryColor: color, secondaryColor: color, website: "", active: "on" };
    const response = await context.request.post("/admin/brands", { multipart: fields, maxRedirects: 0 });
    expect(response.status()).toBe(302);
  }

  // Each brand's id, as the directory's brand filter offers it.
  await page.goto("/directory");
  const idOf = (name: string) =>
    page.locator('select[name="brand"] option').filter({ hasText: name }).first().getAttribute("value");
  const brands = [ends.white, ends.black, BRAND_CARDS.saffron.brand.name, BRAND_CARDS.onyx.brand.name];
  const ids = new Map<string, string>();
  for (const name of brands) ids.set(name, present(await idOf(name), `${name}'s id`));

  const reader = await context.newPage();
  for (const [name, id] of [...ids, ["the company", ""] as const]) {
    const response = await page.request.get(`/admin/invitation-preview.html?brand=${id}`);
    expect(response.status(), name).toBe(200);
    await reader.setContent(await response.text());
    await expect(reader.getByRole("link", { name: "Claim my card" })).toBeVisible();
    expect(await unreadableText(reader), `the invitation of ${name}`).toEqual([]);
  }

  // The preview's own button sends the one looked at; it arrives as drawn.
  await page.goto("/admin/profiles");
  for (const name of [ends.white, ends.black]) {
    const sent = await context.request.post("/admin/profiles", {
      multipart: { intent: "test-invitation", brand: present(ids.get(name), name), redirectTo: "/admin/profiles" },
      maxRedirects: 0,
    });
    expect(sent.status()).toBe(302);
    const mail = () => newestMailTo("admin@example.com");
    // A long subject is folded onto a second header line; its start names the brand.
    await expect.poll(() => mail()?.subject ?? "").toMatch(new RegExp(`^\\[Test\\] ${name} has prepared`));
    await reader.setContent(present(htmlPartOf(present(mail(), "the test mail").raw), "the mail's HTML"));
    expect(await unreadableText(reader), `the test mail of ${name}`).toEqual([]);
    await screenshot(reader, `mail-invitation-${name === ends.white ? "white" : "black"}-brand`);
  }
});

test("the account mails read in the company's colours", async ({ page, context }) => {
  const email = "admin@example.com";
  await page.goto("/auth/forgot-password");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  const mail = () => newestMailTo(email);
  await expect.poll(() => mail()?.subject ?? "").toMatch(/^Reset your .* password$/);
  const reader = await context.newPage();
  await reader.setContent(present(htmlPartOf(present(mail(), "the reset mail").raw), "the mail's HTML"));
  await expect(reader.getByRole("link", { name: "Choose a new password" })).toBeVisible();
  expect(await unreadableText(reader)).toEqual([]);
});
