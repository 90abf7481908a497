import fs from "node:fs";
import sharp from "sharp";
import {
  chooseAction,
  expect,
  expectAccessible,
  failedLoad,
  PEOPLE,
  screenshot,
  signIn,
  switchScheme,
  test,
} from "./fixtures";

test("the administrator manages profiles from the dashboard: create, search, edit, delete, export", async ({
  page,
  login,
}, testInfo) => {
  // A long journey (five writes, an upload, an accessibility scan): room for a busy machine.
  test.slow();
  await login("admin");
  await page.goto("/");
  await expect(page.getByRole("tab", { name: "Overview" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByText("Across all profiles")).toBeVisible();
  await expect(page.getByText("Companies represented")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Recent Members" })).toBeVisible();
  const rollout = page.getByRole("region", { name: "Rollout" });
  for (const step of ["Cards", "Invited", "Claimed", "Active"])
    await expect(rollout.getByText(step, { exact: true })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "admin-dashboard-desktop-light");
  await switchScheme(page, "dark");
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, "admin-dashboard-phone-dark");
  await switchScheme(page, "light");
  await page.setViewportSize({ width: 1280, height: 720 });

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export Data" }).click();
  expect((await download).suggestedFilename()).toMatch(/^namecard-dashboard-\d{4}-\d{2}-\d{2}\.csv$/);
  await expect(page.getByRole("status").filter({ hasText: "Dashboard data exported successfully!" })).toBeVisible();

  // Create an unclaimed profile.
  await page.getByRole("tab", { name: /Manage Profiles/ }).click();
  await expect(page).toHaveURL(/\/admin\/profiles$/);
  await page.getByRole("link", { name: "Add Profile" }).click();
  await expect(page.getByText(/unclaimed profile/)).toBeVisible();
  await page.getByLabel("First name").fill("Petra");
  await page.getByLabel("Last name").fill("Prepared");
  await page.getByLabel("Email", { exact: true }).fill("petra.prepared@example.org");
  await page.getByRole("button", { name: "Create Profile" }).click();
  // The confirmation comes as a toast; the address carries nothing personal.
  await expect(page).toHaveURL(/\/admin\/profiles$/);
  await expect(page.getByText("Profile created for Petra Prepared.")).toBeVisible();

  // Search (no bio), then edit in the modal.
  await page.getByPlaceholder("Search by name, email or username...").fill("petra.prep");
  await expect(page.getByRole("heading", { name: /Profile Management \(1 of \d+\)/ })).toBeVisible();
  const row = page.getByRole("row", { name: /Petra Prepared/ });
  await expect(row.getByTestId("invitation-state")).toHaveText("Not invited");
  await expect(row.getByText("No brand")).toBeVisible();
  await row.getByRole("button", { name: "Edit Petra Prepared" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit Profile: Petra Prepared" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Bio", { exact: true })).toHaveAttribute("rows", "3");
  await expectAccessible(page);
  const photo = testInfo.outputPath("petra.png");
  await sharp({ create: { width: 300, height: 300, channels: 3, background: "#f97316" } })
    .png()
    .toFile(photo);
  await dialog.getByLabel("Drag and drop or click to browse").setInputFiles(photo);
  await dialog.getByLabel("Job title", { exact: true }).fill("Buyer");
  await dialog.getByLabel("Company / brand").selectOption({ label: "Harbor Logistics" });
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Profile updated successfully for Petra Prepared!")).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(row.getByText("Harbor Logistics")).toBeVisible();
  await screenshot(page, "admin-profiles-desktop-light");

  // Delete after the confirmation.
  await chooseAction(row, "Petra Prepared", "Delete…");
  const confirm = page.getByRole("alertdialog");
  await expect(confirm.getByText("Are you sure you want to delete Petra Prepared's profile?")).toBeVisible();
  await expect(confirm.getByText(/cannot be undone/)).toBeVisible();
  await confirm.getByRole("button", { name: "Delete Profile" }).click();
  await expect(page.getByText("Profile deleted successfully for Petra Prepared.")).toBeVisible();
  await expect(page.getByText("No profiles found")).toBeVisible();
  await expect(page.getByText("Try adjusting your search or filter criteria.")).toBeVisible();
  await page.getByRole("button", { name: "Dismiss" }).click();
  await expect(page.getByText("Profile deleted successfully for Petra Prepared.")).toBeHidden();
});

test("the administrator adds, edits and deletes a brand", async ({ page, login, expectConsoleError }) => {
  // The form without a name answers 400 with its message.
  expectConsoleError(failedLoad(400, "/admin/brands.data"));
  await login("admin");
  await page.goto("/admin/brands");
  await expect(page.getByRole("heading", { name: "Brand Management" })).toBeVisible();
  await page.getByRole("button", { name: "Add Brand" }).click();
  const dialog = page.getByRole("dialog", { name: "Add New Brand" });
  await dialog.getByRole("button", { name: "Create Brand" }).click();
  await expect(dialog.getByText("Brand name is required")).toBeVisible();
  await dialog.getByLabel("Brand name").fill("  Zephyr Studio  ");
  await dialog.getByLabel("Website").fill("https://zephyr.example");
  await expectAccessible(page);
  await dialog.getByRole("button", { name: "Create Brand" }).click();
  await expect(page.getByText("Brand created successfully!")).toBeVisible();
  const card = page.getByRole("article").filter({ hasText: "Zephyr Studio" });
  await expect(card.getByText("Active")).toBeVisible();
  await expect(card.getByText("#3b82f6")).toBeVisible();
  await expect(card.getByRole("link", { name: "zephyr.example" })).toBeVisible();
  // The brand's success toast goes after 3 seconds.
  await expect(page.getByText("Brand created successfully!")).toBeHidden({ timeout: 5_000 });

  await card.getByRole("button", { name: "Edit Zephyr Studio" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Brand" });
  await edit.getByLabel(/^Active/).uncheck();
  await edit.getByRole("button", { name: "Update Brand" }).click();
  await expect(page.getByText("Brand updated successfully!")).toBeVisible();
  await expect(card.getByText("Inactive")).toBeVisible();
  await screenshot(page, "admin-brands-desktop-light");

  await card.getByRole("button", { name: "Delete Zephyr Studio" }).click();
  await expect(
    page.getByText("Are you sure you want to delete this brand? This action cannot be undone."),
  ).toBeVisible();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete Brand" }).click();
  await expect(page.getByText("Brand deleted successfully!")).toBeVisible();
  await expect(page.getByRole("article").filter({ hasText: "Zephyr Studio" })).toHaveCount(0);
});

test("a brand form with mistakes keeps its messages while a colleague's change refreshes the page", async ({
  page,
  login,
  expectConsoleError,
  context,
}) => {
  // React renders the router's updates as transitions: with a page refresh under way, the render
  // of "submitting" could come only once the form's answer was in, the failed save then looked
  // like a redirect, and the dialog closed. A slowed processor and a colleague's save at the
  // moment of sending make that likely in every round.
  test.slow();
  expectConsoleError(failedLoad(400, "/admin/brands.data"));
  await login("admin");
  const name = `Colleague Studio ${test.info().workerIndex}-${Date.now()}`;
  const fields = { name, primaryColor: "#0f766e", secondaryColor: "#115e59", website: "", active: "on" };
  const save = async (form: Record<string, string>) => {
    // Another administrator's save, from elsewhere: every open brands page hears of it.
    const response = await context.request.post("/admin/brands", { multipart: form, maxRedirects: 0 });
    expect(response.status()).toBe(302);
  };
  await save({ intent: "create", ...fields });
  await page.goto("/admin/brands");
  await page.getByRole("button", { name: `Edit ${name}` }).click();
  const id = await page.getByRole("dialog", { name: "Edit Brand" }).locator('input[name="id"]').inputValue();
  await page.keyboard.press("Escape");
  await expect(page.locator("html[data-live=connected]")).toHaveCount(1);

  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 6 });
  const heard = () => page.evaluate(() => Number(document.documentElement.dataset.liveEvents ?? 0));
  for (let round = 0; round < 3; round++) {
    await page.getByRole("button", { name: "Add Brand" }).click();
    const dialog = page.getByRole("dialog", { name: "Add New Brand" });
    const before = await heard();
    const refreshed = page.waitForResponse(
      (response) => response.request().method() === "GET" && response.url().includes("/admin/brands.data"),
    );
    await Promise.all([
      dialog.getByRole("button", { name: "Create Brand" }).click(),
      save({ intent: "update", id, ...fields }),
    ]);
    await expect.poll(heard).toBeGreaterThan(before);
    await refreshed;
    await expect(page.locator("html[data-live-pending]")).toHaveCount(0);
    await expect(dialog.getByText("Brand name is required")).toBeVisible();
    await dialog.getByLabel("Brand name").fill("Still open");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
  }
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  await save({ intent: "delete", id });
});

test("the administrator reads analytics and exports them", async ({ page, login }) => {
  await login("admin");
  await page.goto("/");
  await page.getByRole("link", { name: "Analytics" }).first().click();
  await expect(page.getByText("Platform insights and user engagement metrics.")).toBeVisible();
  for (const tile of ["Total Profiles", "Active Brands", "Total Views", "Active Users"]) {
    await expect(page.getByText(tile, { exact: true }).first()).toBeVisible();
  }
  await expect(page.getByRole("heading", { name: "Profiles by Brand" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Most Viewed Profiles" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "New User Registrations (Last 30 Days)" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Views by Source" })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "admin-analytics-desktop-light");
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^\d{4}-\d{2}-\d{2}-namecard-analytics\.csv$/);
  await expect(page.getByRole("status").filter({ hasText: "Analytics data exported successfully!" })).toBeVisible();
  expect(fs.readFileSync(await file.path(), "utf8")).toContain("Top Profiles");
  await page.getByRole("button", { name: "Refresh" }).click();
  await expect(page.getByRole("button", { name: "Refresh" })).toBeEnabled();
});

test("a member whose card an administrator deleted is signed out at once and cannot sign in again", async ({
  page,
  login,
  newContext,
  expectConsoleError,
}) => {
  // The refused sign-in answers 400 with its message.
  expectConsoleError(failedLoad(400, "/auth.data?redirectTo=%2Fdirectory"));
  const { email } = await login("orphan");
  await page.goto("/");
  await expect(page.getByRole("heading", { name: /^Welcome( back)?, Orla!$/ })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("data-live", "connected");

  // The administrator, in a browser of their own, signs in through the form.
  const adminContext = await newContext();
  const admin = await adminContext.newPage();
  await admin.goto("/auth");
  await signIn(admin, PEOPLE.admin.email);
  await expect(admin).toHaveURL(/\/$/);
  await admin.goto(`/admin/profiles?q=${encodeURIComponent(email)}`);
  await chooseAction(admin.getByRole("row", { name: /Orla Orphan/ }), "Orla Orphan", "Delete…");
  const confirm = admin.getByRole("alertdialog");
  await expect(confirm.getByText("Orla's account goes with it: they are signed out everywhere")).toBeVisible();
  await screenshot(admin, "delete-claimed-card-desktop-light");
  await confirm.getByRole("button", { name: "Delete Profile" }).click();
  await expect(admin.getByText("Profile deleted successfully for Orla Orphan.")).toBeVisible();
  // The member's open page stops listening: it hears that its session ended (and stops asking for updates it
  // would be refused), or the card's change sends it to sign in first.
  await expect(page.locator("html[data-live=connected]")).toHaveCount(0);

  // The card took the account with it: the member's next page is the sign-in form, and their password opens nothing.
  await page.goto("/directory");
  await expect(page).toHaveURL(/\/auth\?/);
  await signIn(page, email);
  await expect(page.getByText("Invalid email or password")).toBeVisible();
  await expect(page).toHaveURL(/\/auth/);
  await expectAccessible(page);
});

test("the administrator makes a member an administrator, whose open page gains the administrator's navigation, and takes it back", async ({
  page,
  login,
  newContext,
  sessions,
}) => {
  test.slow();
  const deputy = await newContext();
  await deputy.addCookies((await sessions("deputy")).cookies);
  const theirs = await deputy.newPage();
  await theirs.goto("/directory");
  await expect(theirs.locator("html")).toHaveAttribute("data-live", "connected");
  const nav = theirs.getByRole("navigation", { name: "Main" }).first();
  await expect(nav.getByRole("link", { name: "Dashboard" })).toHaveCount(0);

  await login("admin");
  await page.goto("/admin/profiles?q=dan.deputy");
  const row = page.getByRole("row", { name: /Dan Deputy/ });
  await chooseAction(row, "Dan Deputy", "Make administrator");
  await expect(page.getByText("Dan Deputy is now an administrator.")).toBeVisible();
  await expect(row.getByText("Administrator", { exact: true })).toBeVisible();
  await expectAccessible(page);
  for (const [width, device] of [
    [1440, "desktop"],
    [390, "mobile"],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await screenshot(page, `admin-role-${device}-${scheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1440, height: 900 });
  // Their open page follows at once, in the session they already hold.
  await expect(nav.getByRole("link", { name: "Dashboard" })).toBeVisible();

  await chooseAction(row, "Dan Deputy", "Remove administrator");
  await expect(page.getByText("Dan Deputy is a member again, no longer an administrator.")).toBeVisible();
  await expect(row.getByText("Administrator", { exact: true })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Dashboard" })).toHaveCount(0);
  await theirs.goto("/admin/dashboard");
  await expect(theirs).toHaveURL(/\/directory$/);
});
