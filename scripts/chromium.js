// Where the tests find a browser: `npx playwright install` downloads browsers
// from outside the package registries, so they use Debian's. Its headless
// shell (`apt-get install chromium-headless-shell`) is preferred: it is the
// browser without a window system, and ran the browser tests in two thirds of
// the full Chromium's time on a 2-core machine. CHROMIUM_PATH names another.
import fs from "node:fs";

export const CHROMIUM_CANDIDATES = [
  process.env.CHROMIUM_PATH,
  "/usr/bin/chromium-headless-shell",
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
].filter(Boolean);

/** The first browser found, or undefined. */
export const CHROMIUM = CHROMIUM_CANDIDATES.find((file) => fs.existsSync(file));
