import AxeBuilder from "@axe-core/playwright";
import {
  type APIRequestContext,
  type BrowserContext,
  type BrowserContextOptions,
  test as base,
  expect,
  type Locator,
  type Page,
  request as playwrightRequest,
} from "@playwright/test";
import { latestMail } from "../support/outbox";
import { present } from "../support/present";
import { INSTANCES, urlOf } from "./instances.js";
import { PASSWORD, PEOPLE, type Person, type PersonName } from "./people";

export { expect, PASSWORD, PEOPLE };

/** The server a project's tests run against (playwright.config.ts): its address and its data. */
function serverOf(project: { use: { baseURL?: string } }) {
  const instance = present(
    Object.values(INSTANCES).find((candidate) => urlOf(candidate) === project.use.baseURL),
    `the server at ${project.use.baseURL}`,
  );
  return { url: urlOf(instance), outbox: `${instance.dataDir}/mail` };
}

/** The server the running test talks to. */
const currentServer = () => serverOf(test.info().project);

let counter = 0;
export function uniqueEmail(prefix = "member") {
  counter++;
  return `${prefix}.${process.pid}.${counter}.${Date.now()}@example.com`;
}

/**
 * A client address for the e2e server, which trusts one proxy hop: each test
 * and each sign-in gets its own, so the sign-in rate limit of one never blocks
 * another. `group` keeps the kinds of use apart.
 */
function clientAddress(group: number, workerIndex: number, n: number) {
  return `10.${group}.${workerIndex % 250}.${(n % 250) + 1}`;
}

export type StorageState = Awaited<ReturnType<APIRequestContext["storageState"]>>;

/** Signs `person` in through the auth API, as the sign-in form does; returns the cookies it set. */
async function signInThroughApi(person: Person, ip: string, url: string): Promise<StorageState> {
  const api = await playwrightRequest.newContext({
    baseURL: url,
    extraHTTPHeaders: { "x-forwarded-for": ip, origin: url },
  });
  try {
    const response = await api.post("/api/auth/sign-in/email", {
      data: { email: person.email, password: PASSWORD },
    });
    expect(response.ok(), `signing in ${person.email}: ${await response.text()}`).toBe(true);
    return await api.storageState();
  } finally {
    await api.dispose();
  }
}

/**
 * Collects the browser's console errors and uncaught page errors. Each fails
 * the test unless the test said it expects it (`expectConsoleError`), and an
 * expected error that never came fails it too.
 */
class ConsoleWatch {
  private expected: { pattern: RegExp; seen: boolean; optional: boolean }[] = [];
  private unexpected: string[] = [];

  /** `optional`: the browser may or may not report it (a stream cut by going offline), and either is fine. */
  expect(pattern: RegExp, optional = false) {
    this.expected.push({ pattern, seen: false, optional });
  }

  watch(context: BrowserContext) {
    context.on("console", (message) => {
      if (message.type() !== "error") return;
      const location = message.location();
      this.record(`console.error: ${message.text()}${location.url ? ` (${location.url})` : ""}`);
    });
    context.on("weberror", (error) => this.record(`uncaught error: ${error.error().message}`));
  }

  private record(message: string) {
    const match = this.expected.find(({ pattern }) => pattern.test(message));
    if (match) match.seen = true;
    else this.unexpected.push(message);
  }

  /** Known defects of the app, reported on the test instead of failing it until they are fixed. */
  problems() {
    return [
      ...this.unexpected,
      ...this.expected
        .filter(({ seen, optional }) => !seen && !optional)
        .map(({ pattern }) => `expected a browser error matching ${pattern}`),
    ];
  }
}

/**
 * What Chromium logs as an error when a page or data request answers `status`
 * (a 404 page, a 400 for a form with mistakes): for `expectConsoleError`.
 */
export function failedLoad(status: number, path: string): RegExp {
  const escaped = `${currentServer().url}${path}`.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(
    `^console\\.error: Failed to load resource: the server responded with a status of ${status} .*\\(${escaped}\\)$`,
  );
}

type TestFixtures = {
  /** This test's client address (sent as X-Forwarded-For). */
  clientIp: string;
  /** Signs the test's browser in as one of the seeded people; `fresh` for a session of its own (to sign out). */
  login: (name: PersonName, options?: { fresh?: boolean }) => Promise<Person>;
  /** A second browser (another person, elsewhere), watched like the first and closed after the test. */
  newContext: (options?: BrowserContextOptions) => Promise<BrowserContext>;
  /** This test provokes a browser error matching `pattern` on purpose. */
  expectConsoleError: (pattern: RegExp, optional?: boolean) => void;
  consoleWatch: ConsoleWatch;
};

type WorkerFixtures = {
  /** One signed-in session per person per worker, reused by every test of the worker. */
  sessions: (name: PersonName) => Promise<StorageState>;
};

export const test = base.extend<TestFixtures, WorkerFixtures>({
  sessions: [
    async ({}, use, workerInfo) => {
      const cache = new Map<PersonName, Promise<StorageState>>();
      let n = 0;
      await use((name) => {
        let state = cache.get(name);
        if (!state) {
          state = signInThroughApi(
            PEOPLE[name],
            clientAddress(21, workerInfo.workerIndex, n++),
            serverOf(workerInfo.project).url,
          );
          cache.set(name, state);
        }
        return state;
      });
    },
    { scope: "worker" },
  ],

  clientIp: async ({}, use, testInfo) => {
    await use(clientAddress(20, testInfo.workerIndex, counter++));
  },

  extraHTTPHeaders: async ({ clientIp }, use) => {
    await use({ "x-forwarded-for": clientIp });
  },

  consoleWatch: async ({}, use, testInfo) => {
    const watch = new ConsoleWatch();
    await use(watch);
    const problems = watch.problems();
    // A failing test reports its own error; these would only add noise to it.
    if (problems.length && testInfo.status === testInfo.expectedStatus) {
      throw new Error(`The browser reported errors:\n${problems.join("\n")}`);
    }
  },

  context: async ({ context, consoleWatch }, use) => {
    consoleWatch.watch(context);
    await use(context);
  },

  expectConsoleError: async ({ consoleWatch }, use) => {
    await use((pattern, optional) => consoleWatch.expect(pattern, optional));
  },

  login: async ({ context, sessions }, use, testInfo) => {
    await use(async (name, options = {}) => {
      const person = PEOPLE[name];
      const state = options.fresh
        ? await signInThroughApi(
            person,
            clientAddress(23, testInfo.workerIndex, counter++),
            serverOf(testInfo.project).url,
          )
        : await sessions(name);
      await context.addCookies(state.cookies);
      return person;
    });
  },

  newContext: async ({ browser, consoleWatch }, use, testInfo) => {
    const contexts: BrowserContext[] = [];
    await use(async (options = {}) => {
      const context = await browser.newContext({
        extraHTTPHeaders: { "x-forwarded-for": clientAddress(22, testInfo.workerIndex, counter++) },
        ...options,
      });
      consoleWatch.watch(context);
      contexts.push(context);
      return context;
    });
    for (const context of contexts) await context.close();
  },
});

/** The newest outbox message to `email`, or null. */
export function newestMailTo(email: string) {
  return latestMail(currentServer().outbox, email);
}

/** Waits for the outbox message to `email` and returns its link. */
export async function mailLink(email: string): Promise<string> {
  const { outbox } = currentServer();
  const link = () => latestMail(outbox, email)?.link;
  await expect.poll(link).toBeTruthy();
  return present(link(), `a link in the mail to ${email}`);
}

/** The address in the `List-Unsubscribe` header of the newest mail to `email`. */
export async function unsubscribeLink(email: string): Promise<string> {
  const { outbox } = currentServer();
  const headers = () =>
    latestMail(outbox, email)
      ?.raw.split(/\r?\n\r?\n/)[0]
      ?.replace(/\r?\n[ \t]+/g, " ") ?? "";
  await expect.poll(headers).toMatch(/^List-Unsubscribe: </m);
  return present(/^List-Unsubscribe: <([^>]+)>/m.exec(headers())?.[1], `the unsubscribe link mailed to ${email}`);
}

/** Fills and sends the sign-in form of the page that shows it. */
export async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
}

/** A modal dialog (Radix marks the open one). */
const OPEN_MODAL = ':is([role="dialog"], [role="alertdialog"])[data-state="open"]';

/** Axe reads the whole page in the browser: slow on a busy machine, so each check gets its own allowance. */
const AXE_TIMEOUT_MS = 30_000;

/**
 * The page wears the theme its visitor chose: after `emulateMedia` changes the
 * system's scheme, the page's listener moves `dark` on <html> a moment later,
 * and axe measuring in between reads light text on a dark background. Pages
 * without JavaScript have no listener, so nothing to wait for.
 */
async function themeSettled(page: Page) {
  await page.waitForFunction(() => {
    const root = document.documentElement;
    if (!root.classList.contains("js")) return true;
    let chosen: string | null = null;
    try {
      chosen = localStorage.getItem("theme");
    } catch {}
    chosen ??= /(?:^|; )theme=(light|dark|system)/.exec(document.cookie)?.[1] ?? "system";
    const dark = chosen === "dark" || (chosen !== "light" && matchMedia("(prefers-color-scheme: dark)").matches);
    return root.classList.contains("dark") === dark;
  });
}

/**
 * The page has no serious or critical accessibility violations (axe). Axe runs
 * in the page itself (legacy mode; the default opens an extra page to merge
 * per-frame results, and our pages have no frames) and reports violations
 * only: a third of the time of a full report.
 */
export async function expectAccessible(page: Page) {
  const info = test.info();
  info.setTimeout(info.timeout + AXE_TIMEOUT_MS);
  await themeSettled(page);
  const axe = new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ["violations"] });
  // Under an open modal the page is inert and dimmed on purpose: what a reader meets is the
  // dialog. Axe sometimes measured the dimmed text behind it as if it were the page.
  if (await page.locator(OPEN_MODAL).count()) axe.include(OPEN_MODAL);
  const results = await axe.analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}

/**
 * Switches the device's colour scheme and waits until the page follows it: the
 * theme script sets the `dark` class when the device's setting changes, and a
 * check made before that sees half a theme.
 */
export async function switchScheme(page: Page, scheme: "light" | "dark") {
  await page.emulateMedia({ colorScheme: scheme });
  await expect(page.locator("html")).toHaveClass(scheme === "dark" ? /(^|\s)dark(\s|$)/ : /^(?!.*(^|\s)dark(\s|$))/);
}

/** Under CI nobody looks at the screens: a whole-page picture costs a busy machine a second each. */
const KEEP_SCREENS = !["1", "true"].includes((process.env.CI ?? "").toLowerCase());

/** Saves the whole page to tests/.tmp/screens/NAME.png, for the people changing a screen to look at. */
export async function screenshot(page: Page, name: string) {
  if (!KEEP_SCREENS) return;
  await page.screenshot({ path: `tests/.tmp/screens/${name}.png`, fullPage: true });
}

/** Runs one of a card's actions in Manage Profiles: its row's "Actions" menu, then the named item. */
export async function chooseAction(row: Locator, person: string, action: string | RegExp) {
  await row.getByRole("button", { name: `Actions for ${person}` }).click();
  await row.page().getByRole("menuitem", { name: action }).click();
}

/** A tab of System Settings: a link in the settings' own navigation. */
export function settingsTab(page: Page, name: string) {
  return page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name, exact: true });
}

/**
 * Saves the settings tab shown and waits for its answer: a toast from the save before may
 * still be on the screen, so the toast alone does not prove this save arrived.
 */
export async function saveSettings(page: Page) {
  const answered = page.waitForResponse(
    (response) =>
      response.request().method() === "POST" && new URL(response.url()).pathname.startsWith("/admin/settings/"),
  );
  await page.getByRole("button", { name: "Save Settings" }).click();
  expect((await answered).status()).toBeLessThan(400);
  await expect(page.getByText("Settings saved successfully!")).toBeVisible();
}
