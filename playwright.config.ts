import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM } from "./scripts/chromium.js";
import { INSTANCES, urlOf } from "./tests/e2e/instances.js";

/** The server most tests run against; the settings project has one of its own. */
export const E2E_URL = urlOf(INSTANCES.main);
const SETTINGS_URL = urlOf(INSTANCES.settings);

/** Debian's headless Chromium, or its full one, or CHROMIUM_PATH (scripts/chromium.js). */
const executablePath = CHROMIUM;

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 2,
  // A failing test runs once more to record a trace, and the run still fails:
  // tracing every passing test cost a tenth of the run.
  retries: 1,
  failOnFlakyTests: true,
  // A journey of a dozen steps on a busy 2-core machine; each axe check adds its own allowance.
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: E2E_URL,
    trace: "on-first-retry",
    screenshot: "only-on-failure",
    // Pages honour reduced motion (app/app.css): no transition is caught
    // half-way by an accessibility check or a screenshot.
    contextOptions: { reducedMotion: "reduce" },
    launchOptions: {
      executablePath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    // Changes the site's settings, which every page shows, or counts the refreshes other
    // people's changes cause: on a server of its own, one file at a time, so one file's
    // settings or changes never meet another's. Listed first, so that its one worker
    // starts at once beside the others instead of after them.
    {
      name: "settings",
      use: { ...devices["Desktop Chrome"], channel: undefined, baseURL: SETTINGS_URL },
      testMatch: /\.alone\.spec\.ts$/,
      workers: 1,
    },
    { name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined }, testIgnore: /\.alone\.spec\.ts$/ },
  ],
  webServer: Object.entries(INSTANCES).map(([name, instance]) => ({
    command: `node tests/e2e/serve.js --instance=${name}`,
    url: `${urlOf(instance)}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
  })),
});
