import { describe, expect, it } from "vitest";
import { ON_POSTGRES, startedProcesses } from "../support/process-suite";
import { freePort, launch, migratedDataDir, SERVER_BUILT, serverEnv } from "../support/server-process";

/**
 * `npm start` is what operators run: it must serve React's and Express's
 * production builds unless NODE_ENV says otherwise.
 */

const started = startedProcesses("the production-mode tests", { signal: "SIGTERM" });

async function startWithout(nodeEnv: string | undefined) {
  const port = await freePort();
  // The suite's build, as it is: other tests serve from it while this one runs.
  const env: NodeJS.ProcessEnv = { ...serverEnv({ port, dataDir: await migratedDataDir() }), NAMECARD_SKIP_BUILD: "1" };
  if (nodeEnv === undefined) delete env.NODE_ENV;
  else env.NODE_ENV = nodeEnv;
  const running = launch(process.execPath, ["scripts/start.js"], env);
  started.push(running);
  const line = await running.waitForOutput(/Namecard is listening[^\n]*/, 180_000);
  return { running, line, port };
}

describe.skipIf(ON_POSTGRES || !SERVER_BUILT)("npm start", () => {
  it("runs in production mode when NODE_ENV is not set, and serves a card page", async () => {
    const { line, port } = await startWithout(undefined);
    expect(line).toMatch(/production mode/);
    const response = await fetch(`http://127.0.0.1:${port}/auth`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("<!DOCTYPE html>");
  }, 200_000);

  it("keeps an operator's explicit NODE_ENV", async () => {
    const { line } = await startWithout("test");
    expect(line).toMatch(/test mode/);
  }, 200_000);
});
