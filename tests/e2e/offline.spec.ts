import { expect, test } from "./fixtures";

/**
 * A member's own card and QR page open without a network once seen (at a fair,
 * on a train); nobody else's pages are kept on the device, and signing out
 * removes what was kept.
 */

test("a member's own card and QR page open offline once seen, others' do not, and signing out removes them", async ({
  page,
  login,
  context,
  expectConsoleError,
}) => {
  // Offline, the page's live updates may fail to reconnect, as on any page without a network.
  expectConsoleError(/net::ERR_(INTERNET_DISCONNECTED|FAILED|NAME_NOT_RESOLVED)/, true);
  // A session of its own: signing out ends it, and other tests of this worker keep theirs.
  const member = await login("member", { fresh: true });
  const name = `${member.firstName} ${member.lastName}`;
  await page.goto("/profile/mia.member");
  // The worker takes charge of the page once it is running; the next loads go through it and are kept.
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 15_000 })
    .toBe(true);
  await page.reload();
  await page.goto("/qr/mia.member");
  await expect(page.getByText(`Scan to connect with ${member.firstName}`)).toBeVisible();

  await context.setOffline(true);
  await page.goto("/profile/mia.member");
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  await page.goto("/qr/mia.member");
  await expect(page.getByText(`Scan to connect with ${member.firstName}`)).toBeVisible();
  // A colleague's card was never kept.
  await expect(page.goto("/profile/amelia.hart")).rejects.toThrow();
  await context.setOffline(false);

  await page.goto("/directory");
  await page.getByRole("button", { name: "Sign Out" }).first().click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect
    .poll(() =>
      page.evaluate(async () => ({
        caches: (await caches.keys()).length,
        workers: (await navigator.serviceWorker.getRegistrations()).length,
      })),
    )
    .toEqual({ caches: 0, workers: 0 });
});
