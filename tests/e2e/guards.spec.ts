import { expect, expectAccessible, failedLoad, PEOPLE, screenshot, signIn, test } from "./fixtures";

test.describe("a visitor", () => {
  test("is sent to sign in from the home page, the directory, the profile form, help and administrator pages", async ({
    page,
  }) => {
    for (const path of ["/", "/directory", "/profile/edit", "/help", "/admin/brands", "/admin/settings"]) {
      await page.goto(path);
      await expect(page).toHaveURL(
        path === "/" ? /\/auth$/ : new RegExp(`/auth\\?redirectTo=${encodeURIComponent(path)}$`),
      );
      await expect(page.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
    }
  });

  test("comes back to the page they asked for after signing in", async ({ page }) => {
    await page.goto("/help");
    await signIn(page, PEOPLE.member.email);
    await expect(page).toHaveURL(/\/help$/);
    await expect(page.getByRole("heading", { name: "Help", exact: true })).toBeVisible();
    await expectAccessible(page);
  });

  test("opens public cards and QR pages without signing in", async ({ page, expectConsoleError }) => {
    expectConsoleError(failedLoad(404, "/profile/nobody.here"));
    // Not a card whose views another test counts: this visit counts too.
    await page.goto("/profile/sofia.rossi");
    await expect(page.getByRole("heading", { name: "Sofia Rossi" })).toBeVisible();
    await page.goto("/qr/sofia.rossi");
    await expect(page.getByText("Scan to connect with Sofia")).toBeVisible();
    await page.goto("/profile/nobody.here");
    await expect(page.getByRole("heading", { name: "Profile not found" })).toBeVisible();
    // The directory would only ask them to sign in: they go back where they came from.
    await expect(page.getByRole("link", { name: "Back to Directory" })).toHaveCount(0);
    await page.getByRole("button", { name: "Go back" }).click();
    await expect(page.getByText("Scan to connect with Sofia")).toBeVisible();
  });
});

test.describe("a member", () => {
  test("sees member navigation and is sent from administrator pages to /directory", async ({ page, login }) => {
    await login("member");
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" }).first();
    await expect(nav.getByRole("link")).toHaveText([
      "Home",
      "Directory",
      "Edit Profile",
      "Share",
      "Leads",
      "Security",
      "Help",
    ]);
    await expect(page.getByText("(Admin)")).toHaveCount(0);
    await expect(page.getByText("@mia.member")).toBeVisible();

    for (const path of [
      "/admin/brands",
      "/admin/dashboard",
      "/admin/analytics",
      "/admin/settings",
      "/admin/profiles/create",
    ]) {
      // Where the server sends the member is all this checks: no need to wait for the directory to render.
      await page.goto(path, { waitUntil: "commit" });
      await expect(page).toHaveURL(/\/directory$/);
    }
    await page.goto("/auth");
    await expect(page).toHaveURL(/\/$/);
  });

  test("signs out from the sidebar and can no longer open member pages", async ({ page, login }) => {
    // A session of its own: signing out ends it, and other tests share the member's.
    await login("member", { fresh: true });
    await page.goto("/");
    await page.getByRole("button", { name: "Sign Out" }).first().click();
    await expect(page).toHaveURL(/\/auth$/);
    await page.goto("/directory");
    await expect(page).toHaveURL(/\/auth\?redirectTo=/);
  });
});

test.describe("an administrator", () => {
  test("sees the administrator's navigation and reaches administrator pages", async ({ page, login }) => {
    await login("admin");
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" }).first();
    await expect(nav.getByRole("link")).toHaveText([
      "Dashboard",
      "Directory",
      "Brands",
      "Analytics",
      "Import",
      "Settings",
      "Audit Log",
      "Leads",
      "Security",
      "Help",
    ]);
    await expect(page.getByText("(Admin)").first()).toBeVisible();
    await expect(page.getByText("Total Profiles")).toBeVisible();
    await expectAccessible(page);
    await screenshot(page, "home-admin-desktop-light");

    await page.goto("/admin/brands");
    await expect(page).toHaveURL(/\/admin\/brands$/);
    await expect(page.getByRole("heading", { name: "Brand Management" })).toBeVisible();
    await expectAccessible(page);
  });
});
