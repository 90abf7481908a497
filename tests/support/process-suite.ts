import { afterEach } from "vitest";
import { type Running, SERVER_BUILT, stop } from "./server-process";

/** Whether this run of the server tests is the PostgreSQL one (they run once per engine). */
export const ON_POSTGRES = process.env.NAMECARD_TEST_DB === "postgres";

/**
 * The processes a test file starts. Whatever a test leaves running is ended
 * after it, so a failed assertion never leaves a server holding a port or a
 * data directory. Says so when the build these tests run is missing.
 */
export function startedProcesses(what: string, options: { signal?: NodeJS.Signals } = {}): Running[] {
  if (!SERVER_BUILT) console.warn(`SKIPPED: ${what} need \`npm run build\` first`);
  const started: Running[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((running) => stop(running, options.signal ?? "SIGKILL")));
  });
  return started;
}
