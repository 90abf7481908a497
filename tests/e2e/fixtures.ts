import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";
import { latestMail } from "../support/outbox";

export { expect };

const OUTBOX = "tests/.tmp/e2e-data/mail";
export const PASSWORD = "e2e password 123";

let counter = 0;
export function uniqueEmail(prefix = "member") {
  counter++;
  return `${prefix}.${process.pid}.${counter}.${Date.now()}@example.org`;
}

/**
 * Every test gets its own client address (the e2e server trusts the proxy
 * header), so the sign-in rate limit of one test never blocks another.
 */
export const test = base.extend<{ clientIp: string }>({
  clientIp: async ({}, use, testInfo) => {
    await use(`10.20.${testInfo.workerIndex % 250}.${((testInfo.testId.charCodeAt(0) + counter++) % 250) + 1}`);
  },
  extraHTTPHeaders: async ({ clientIp }, use) => {
    await use({ "x-forwarded-for": clientIp });
  },
});

/** Waits for the outbox message to `email` and returns its link. */
export async function mailLink(email: string): Promise<string> {
  let link: string | null = null;
  await expect
    .poll(() => {
      link = latestMail(OUTBOX, email)?.link ?? null;
      return link;
    })
    .toBeTruthy();
  return link!;
}

/** Signs up through the auth API and opens the emailed link: the page is then signed in. */
export async function signUpAndVerify(
  page: Page,
  person: { email: string; firstName?: string; lastName?: string; password?: string },
) {
  const response = await page.request.post("/api/auth/sign-up/email", {
    data: {
      name: `${person.firstName ?? "Test"} ${person.lastName ?? "Member"}`,
      firstName: person.firstName ?? "Test",
      lastName: person.lastName ?? "Member",
      email: person.email,
      password: person.password ?? PASSWORD,
      callbackURL: "/auth/verified",
    },
  });
  expect(response.ok(), await response.text()).toBe(true);
  await page.goto(await mailLink(person.email));
  await expect(page).toHaveURL(/\/$/);
}

export async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

/** The page has no serious or critical accessibility violations (axe). */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}

export async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `tests/.tmp/screens/${name}.png`, fullPage: true });
}
