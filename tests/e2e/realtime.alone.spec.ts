import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

// Counts which pages refresh for which events: runs on a server of its own, one file at a
// time, so no other test's brand or card changes reach its pages meanwhile.

/** Headless Chromium announces itself as a bot; cards do not count bots' views. */
const PERSON_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

/** The page receives live updates: the tabs of a browser share one stream, held by one of them. */
async function expectListening(page: Page) {
  await expect(page.locator("html")).toHaveAttribute("data-live", "connected");
}

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
  await page.goto("/profile/mia.member");
  await expectListening(page);
  const count = page.getByTestId("view-count");
  const before = Number(await count.textContent());

  const directory = await context.newPage();
  // A directory page that lists someone else, not Mia.
  await directory.goto("/directory?q=ethan.brooks");
  await expectListening(directory);
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

test("eight signed-in tabs over plain HTTP/1.1 all load, and a change made elsewhere reaches the last one", async ({
  context,
  login,
  newContext,
}) => {
  test.slow();
  await login("member");
  // A browser opens at most six connections to a site over HTTP/1.1: a stream per tab left the seventh without one.
  let streams = 0;
  context.on("request", (request) => {
    if (new URL(request.url()).pathname === "/events") streams++;
  });
  const tabs: Page[] = [];
  for (let index = 0; index < 7; index++) {
    const tab = await context.newPage();
    await tab.goto("/directory?q=ethan.brooks");
    await expect(tab.getByRole("heading", { name: "Directory", level: 1 })).toBeVisible();
    tabs.push(tab);
  }
  const last = await context.newPage();
  await last.goto("/profile/mia.member");
  await expect(last.getByRole("heading", { name: "Mia Member", level: 1 })).toBeVisible();
  await expectListening(last);
  for (const tab of tabs) await expectListening(tab);
  expect(streams).toBeLessThan(6);
  const count = last.getByTestId("view-count");
  const before = Number(await count.textContent());

  // Someone else, elsewhere, opens Mia's card: the last tab hears of it through the shared stream.
  const stranger = await (
    await newContext({ userAgent: PERSON_AGENT, extraHTTPHeaders: { "x-forwarded-for": "198.51.100.201" } })
  ).newPage();
  await stranger.goto("/profile/mia.member");
  await expect(stranger.getByTestId("view-count")).toHaveText(String(before + 1));
  await expect(count).toHaveText(String(before + 1));

  // The tab holding the stream closes: another takes it over, and the last tab still hears.
  await tabs[0]?.close();
  const again = await (
    await newContext({ userAgent: PERSON_AGENT, extraHTTPHeaders: { "x-forwarded-for": "198.51.100.202" } })
  ).newPage();
  await again.goto("/profile/mia.member");
  await expect(again.getByTestId("view-count")).toHaveText(String(before + 2));
  await expect(count).toHaveText(String(before + 2));
});
