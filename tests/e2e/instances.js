// The servers the browser tests run against, each with its own data (tests/e2e/serve.js):
// `main` for most tests, and `settings` for the files that change the site's settings,
// which every page shows, so that those run beside the others (playwright.config.ts).
export const INSTANCES = {
  main: { port: 3100, dataDir: "tests/.tmp/e2e-data" },
  settings: { port: 3101, dataDir: "tests/.tmp/e2e-data-settings" },
};

/** @param {{ port: number }} instance */
export const urlOf = (instance) => `http://localhost:${instance.port}`;
