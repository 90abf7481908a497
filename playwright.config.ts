import { defineConfig, devices } from "@playwright/test";

export const E2E_PORT = 3100;
export const E2E_URL = `http://localhost:${E2E_PORT}`;

/** Debian's Chromium (scripts/e2e.js finds it, or CHROMIUM_PATH names another): `npx playwright install`
 * downloads browsers from outside the package registries. */
const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

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
    { name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined }, testIgnore: /\.last\.spec\.ts$/ },
    // Changes the site's settings, which every page shows, or counts the refreshes other
    // people's changes cause: runs after the rest, one file at a time, so one file's
    // settings or changes never meet another's.
    {
      name: "settings",
      use: { ...devices["Desktop Chrome"], channel: undefined },
      testMatch: /\.last\.spec\.ts$/,
      dependencies: ["chromium"],
      workers: 1,
    },
  ],
  webServer: {
    command: "node tests/e2e/serve.js",
    url: `${E2E_URL}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
