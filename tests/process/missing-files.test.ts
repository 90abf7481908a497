import fs from "node:fs";
import path from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, CHROMIUM_CANDIDATES } from "../../scripts/chromium.js";
import { populate } from "../support/populate";
import { ON_POSTGRES, startedProcesses } from "../support/process-suite";
import { migratedDataDir, SERVER_BUILT, type ServerProcess, startServer } from "../support/server-process";

/**
 * Uploaded files that are gone (deleted from the disk, lost in a restore, a
 * bucket emptied) while their rows still name them: the card shows the
 * initials, the brand its initial and its plain gradient, the contact file
 * has no photo, and nothing answers 500. Checked in a real browser on the
 * built server. The files are the same on either engine, so this runs once.
 */
if (!CHROMIUM)
  console.warn(`SKIPPED: the missing-file tests need Chromium at one of ${CHROMIUM_CANDIDATES.join(", ")}`);

const started = startedProcesses("the missing-file tests");

let browser: Browser | undefined;
beforeAll(async () => {
  if (ON_POSTGRES || !SERVER_BUILT || !CHROMIUM) return;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"],
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

/** Every uploaded file, relative to the uploads folder. */
function uploadedFiles(server: ServerProcess) {
  const root = path.join(server.dataDir, "uploads");
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** The images of a page that loaded, by address (a broken one has no natural width). */
async function loadedUploads(page: Page) {
  return page.$$eval('img[src^="/uploads/"]', (images) =>
    (images as HTMLImageElement[]).map((image) => ({
      src: image.getAttribute("src"),
      loaded: image.complete && image.naturalWidth > 0,
    })),
  );
}

/** A browser signed in as the holder of `cookie` (sent as is: the session cookies are `Secure`-prefixed). */
function openAs(cookie: string) {
  return browser!.newContext({ extraHTTPHeaders: { cookie } });
}

describe.skipIf(ON_POSTGRES || !SERVER_BUILT || !CHROMIUM)("when uploaded files are gone", () => {
  it("the card shows the initials, the brand its initial and gradient, and the contact file has no photo", async () => {
    const server = await startServer({ dataDir: await migratedDataDir() });
    started.push(server);
    const { admin } = await populate(server);
    const failures: string[] = [];
    const openPage = async () => {
      const context = await openAs(admin);
      const page = await context.newPage();
      page.on("response", (response) => {
        if (response.status() >= 500) failures.push(`${response.status()} ${response.url()}`);
      });
      return page;
    };

    let page = await openPage();

    // With the files there, the photo, logo and cover load and cover the fallbacks.
    await page.goto(`${server.url}/profile/pho.tograph`);
    await expect
      .poll(() => loadedUploads(page))
      .toEqual([{ src: expect.stringMatching(/^\/uploads\/profiles\//), loaded: true }]);
    await page.goto(`${server.url}/admin/brands`);
    await expect.poll(async () => (await loadedUploads(page)).filter((image) => image.loaded).length).toBe(2);
    const card = await (await fetch(`${server.url}/profile/pho.tograph/contact.vcf`)).text();
    expect(card).toMatch(/^PHOTO;ENCODING=b;TYPE=JPEG:/m);

    const files = uploadedFiles(server);
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const file of files) fs.rmSync(file);
    // A visitor who has not seen the images yet (uploads are cached for good once loaded).
    await page.context().close();
    page = await openPage();

    // The card: the initials on the gradient, no broken image left over them.
    await page.goto(`${server.url}/profile/pho.tograph`);
    await expect.poll(() => loadedUploads(page)).toEqual([]);
    const avatar = page.locator("main article span.rounded-full", { has: page.getByText("PT", { exact: true }) });
    await expect.poll(() => avatar.first().isVisible()).toBe(true);
    const photoAddress = /src="(\/uploads\/profiles\/[^"]+)"/.exec(
      await (await fetch(`${server.url}/profile/pho.tograph`)).text(),
    )?.[1];
    expect(photoAddress, "the server still names the photo; the browser drops it").toBeTruthy();
    expect((await fetch(`${server.url}${photoAddress}`)).status).toBe(404);

    // The brands page: the logo's place shows the brand's initial, the cover the plain gradient.
    await page.goto(`${server.url}/admin/brands`);
    await expect.poll(() => loadedUploads(page)).toEqual([]);
    await expect.poll(() => page.locator("article").getByText("B", { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole("heading", { name: "Backup Brand" }).isVisible()).toBe(true);

    // The contact file: everything but the photo.
    const response = await fetch(`${server.url}/profile/pho.tograph/contact.vcf`);
    expect(response.status).toBe(200);
    const withoutPhoto = await response.text();
    expect(withoutPhoto).not.toMatch(/^PHOTO/m);
    expect(withoutPhoto).toMatch(/^FN:Pho Tograph\r?$/m);
    expect(withoutPhoto).toMatch(/^TITLE:Kept in the archive\r?$/m);

    expect(failures).toEqual([]);
    expect(server.output()).not.toMatch(/^\s+at /m);
    await page.context().close();
  }, 120_000);
});
