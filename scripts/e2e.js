// The browser tests: builds the app, then runs Playwright in Debian's Chromium
// (scripts/chromium.js). Without one it says so plainly and how to install one;
// under CI that fails the run, elsewhere it exits 0 so that `npm run test:all` still runs the rest.
import { spawnSync } from "node:child_process";
import { CHROMIUM_CANDIDATES, CHROMIUM as chromium } from "./chromium.js";

const IN_CI = ["1", "true"].includes((process.env.CI ?? "").toLowerCase());

if (!chromium) {
  console.error(
    [
      "",
      `┌─ End-to-end tests ${IN_CI ? "FAILED" : "SKIPPED"}: no Chromium found.`,
      `│  Looked for: ${CHROMIUM_CANDIDATES.join(", ")}`,
      "│  Install Debian's headless Chromium:  sudo apt-get install chromium-headless-shell fonts-liberation",
      "│  or point CHROMIUM_PATH at a Chromium binary, then run `npm run test:all` again.",
      ...(IN_CI ? ["│  Under CI every check must run."] : []),
      "└─",
      "",
    ].join("\n"),
  );
  process.exit(IN_CI ? 1 : 0);
}

function run(command, args, env = {}) {
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (process.env.NAMECARD_SKIP_BUILD !== "1") run("npm", ["run", "build"]);
run("npx", ["playwright", "test", ...process.argv.slice(2)], { CHROMIUM_PATH: chromium });
