import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/** Headless Chromium announces itself as a bot; cards do not count bots' views. */
const PERSON_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

/** The data requests a page makes from now on: each is a refresh of its loaders. */
function countRefreshes(page: Page) {
  const seen: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.endsWith(".data")) seen.push(request.url());
  });
  return seen;
}

test("a view of a card refreshes its owner's open card, not a directory page that does not show it", async ({
  page,
  context,
  login,
  newContext,
}) => {
  // Mia only reads; her card is opened by no other test while this one counts.
  await login("member");
  const cardListens = page.waitForResponse((response) => response.url().endsWith("/events"));
  await page.goto("/profile/mia.member");
  await cardListens;
  const count = page.getByTestId("view-count");
  const before = Number(await count.textContent());

  const directory = await context.newPage();
  const directoryListens = directory.waitForResponse((response) => response.url().endsWith("/events"));
  // A directory page that lists someone else, not Mia.
  await directory.goto("/directory?q=ethan.brooks");
  await directoryListens;
  await expect(directory.getByRole("heading", { name: "Directory", level: 1 })).toBeVisible();
  const directoryRefreshes = countRefreshes(directory);
  const cardRefreshes = countRefreshes(page);

  const stranger = await (await newContext({ userAgent: PERSON_AGENT })).newPage();
  await stranger.goto("/profile/mia.member");
  await expect(stranger.getByTestId("view-count")).toHaveText(String(before + 1));

  // The owner's open card learns of the view and shows it without a reload...
  await expect(count).toHaveText(String(before + 1));
  expect(cardRefreshes.length).toBeGreaterThan(0);
  // ...while the directory page, open in the same browser and told of the same
  // event, did not reload its data for a card it does not show.
  expect(directoryRefreshes).toEqual([]);
});
