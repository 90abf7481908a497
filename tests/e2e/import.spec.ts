import fs from "node:fs";
import type { Page } from "@playwright/test";
import { expect, expectAccessible, screenshot, switchScheme, test } from "./fixtures";

/** Addresses of this run only: a retry or a second run never meets the first one's cards. */
const RUN = Date.now().toString(36);
const BOM = "\uFEFF";

/** As Google Sheets downloads it: commas, LF, a line break and doubled quotes inside a quoted value. */
function sheetsFile(tag: string) {
  return [
    "First name,Last name,Email address,Job title,Company,Bio,Notes",
    `Łukasz,Wiśniewski,lukasz.${tag}@import.test,Sales lead,northwind traders,"Line one\nLine two with ""quotes""",x`,
    `王,芳,wang.${tag}@import.test,工程师,NORTHWIND TRADERS,,`,
    `Ελένη,Παπαδοπούλου,eleni.${tag}@import.test,,,,`,
    `Zoë,Laurent,zoe.${tag}@import.test,Designer,Nowhere Brand,,`,
    `Bad,Address,not-an-email,,,,`,
    "",
  ].join("\n");
}

/** As Excel saves "CSV UTF-8" in a European locale: a BOM, semicolons, CRLF. */
function excelFile(tag: string) {
  return `${BOM}${[
    "Vorname;Nachname;E-Mail;Position;Mobil",
    `Jürgen;Groß;juergen.${tag}@import.test;"Leiter; Einkauf";+49 30 1234 5678`,
    `Ana;Núñez;ana.${tag}@import.test;;`,
  ].join("\r\n")}\r\n`;
}

async function chooseFile(page: Page, name: string, text: string) {
  await page.getByLabel("CSV file").setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(text) });
}

test("the administrator imports a Google Sheets file: columns recognised, a preview per row, progress, a report, and a second import changes nothing", async ({
  page,
  login,
}) => {
  test.slow();
  await login("admin");
  await page.goto("/admin/profiles");
  await page.getByRole("link", { name: "Import CSV" }).click();
  await expect(page.getByRole("heading", { name: "Import profiles", level: 1 })).toBeVisible();

  const template = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download the template" }).click();
  const templatePath = await (await template).path();
  expect(fs.readFileSync(templatePath, "utf8")).toContain('"First name","Last name","Email","Job title"');

  await chooseFile(page, "team.csv", sheetsFile(`s${RUN}`));
  await page.getByRole("button", { name: "Upload and preview" }).click();
  await expect(page.getByRole("heading", { name: "Match the columns" })).toBeVisible();
  await expect(page.getByLabel("Email address")).toHaveValue("email");
  await expect(page.getByLabel("Company", { exact: true })).toHaveValue("brand");
  await expect(page.getByLabel("Notes")).toHaveValue("");
  const rows = page.getByRole("list", { name: "Rows of the file" });
  await expect(rows.locator("[data-row='2']")).toContainText("New card");
  await expect(rows.locator("[data-row='5']")).toContainText('Unknown brand "Nowhere Brand"');
  await expect(rows.locator("[data-row='6']")).toContainText("Enter an email address such as name@company.com");
  await expectAccessible(page);
  for (const [width, name] of [
    [1440, "desktop"],
    [390, "phone"],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `import-preview-${name}-light`);
    await page.emulateMedia({ colorScheme: "dark" });
    await screenshot(page, `import-preview-${name}-dark`);
    await page.emulateMedia({ colorScheme: "light" });
  }
  await page.setViewportSize({ width: 1280, height: 720 });

  const report = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download the report of rows not imported" }).click();
  const reportText = fs.readFileSync(await (await report).path(), "utf8");
  expect(reportText.split("\r\n")[0]).toBe(
    `${BOM}"Row","Reason","First name","Last name","Email address","Job title","Company","Bio","Notes"`,
  );
  expect(reportText).toContain("not-an-email");

  await page.getByRole("button", { name: "Import 3 rows" }).click();
  await expect(page.getByRole("heading", { name: "Import finished" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText("The import finished: 3 new cards, 0 updated, 2 not imported.")).toBeVisible();
  await expect(page.getByText("3 of 5 rows").or(page.getByText("5 of 5 rows"))).toBeVisible();
  await expect(page.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "100");
  await page.setViewportSize({ width: 1440, height: 900 });
  await screenshot(page, "import-finished-desktop-light");
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, "import-finished-desktop-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 720 });

  // The new people are offered their invitations, confirmed with how many and whom.
  await page.getByRole("button", { name: "Invite the 3 new people" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Invite 3 people?" });
  await expect(confirm).toContainText("Łukasz");
  await confirm.getByRole("button", { name: "Send 3 invitations" }).click();
  await expect(page.getByText("Invitations on their way to 3 people.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Invite the 3 new people" })).toHaveCount(0);

  // The new cards are in the directory at once.
  await page.goto(`/directory?q=${encodeURIComponent(`lukasz.s${RUN}`)}`);
  await expect(page.getByText("Łukasz Wiśniewski").first()).toBeVisible();

  // The same file again: nothing to do.
  await page.goto("/admin/import");
  await chooseFile(page, "team.csv", sheetsFile(`s${RUN}`));
  await page.getByRole("button", { name: "Upload and preview" }).click();
  await expect(page.getByRole("heading", { name: "Preview" })).toBeVisible();
  await expect(rows.locator("[data-row='2']")).toContainText("Unchanged");
  await expect(rows.locator("[data-row='4']")).toContainText("Unchanged");
  await expect(page.getByRole("button", { name: "Import 0 rows" })).toBeDisabled();
});

test("an Outlook export's 92 columns: the format named, its matched columns listed, the rest folded away", async ({
  page,
  login,
}) => {
  await login("admin");
  await page.goto("/admin/import");
  const outlook = fs
    .readFileSync("tests/fixtures/exports/outlook-classic.csv", "utf8")
    .replaceAll("@northwind.example", `.o${RUN}@import.test`);
  await chooseFile(page, "contacts.csv", outlook);
  await page.getByRole("button", { name: "Upload and preview" }).click();
  await expect(page.getByText("Looks like an Outlook export")).toBeVisible();
  await expect(page.getByLabel("Job Title", { exact: true })).toHaveValue("title");
  await expect(page.getByLabel("Title", { exact: true })).toBeHidden();
  const folded = page.getByText(/^\d+ columns are not imported$/);
  await expect(folded).toBeVisible();
  await expectAccessible(page);
  for (const [width, name] of [
    [1440, "desktop"],
    [390, "phone"],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    for (const scheme of ["light", "dark"] as const) {
      await switchScheme(page, scheme);
      await screenshot(page, `import-outlook-${name}-${scheme}`);
    }
  }
  await folded.click();
  await expect(page.getByLabel("Title", { exact: true })).toHaveValue("");
});

test.describe("on a phone without JavaScript", () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });

  test("the administrator uploads Excel's file, maps a column by hand, imports it and sees it finished, all with plain forms", async ({
    page,
    login,
  }) => {
    test.slow();
    await login("admin");
    await page.goto("/admin/import");
    await chooseFile(page, "excel.csv", excelFile(`x${RUN}`));
    await page.getByRole("button", { name: "Upload and preview" }).click();
    await expect(page.getByRole("heading", { name: "Match the columns" })).toBeVisible();
    await expect(page.getByLabel("Vorname")).toHaveValue("firstName");
    await expect(page.getByLabel("Mobil")).toHaveValue("phone");
    // Do not bring the phone numbers in this time.
    await page.getByLabel("Mobil").selectOption("");
    await page.getByRole("button", { name: "Update preview" }).click();
    await expect(page.getByLabel("Mobil")).toHaveValue("");
    await expect(page.getByRole("list", { name: "Rows of the file" }).locator("[data-row='2']")).toContainText(
      "New card",
    );
    await screenshot(page, "import-preview-phone-nojs");

    await page.getByRole("button", { name: "Import 2 rows" }).click();
    await expect(page.getByRole("heading", { name: "Import finished" })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText("2 of 2 rows")).toBeVisible();
    await screenshot(page, "import-finished-phone-nojs");

    await page.goto(`/directory?q=${encodeURIComponent(`juergen.x${RUN}`)}`);
    await expect(page.getByText("Jürgen Groß").first()).toBeVisible();
  });
});
