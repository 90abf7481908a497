import { afterEach } from "vitest";
import { type Running, SERVER_BUILT, stop } from "./server-process";

/** Whether this run of the server tests is the PostgreSQL one (they run once per engine). */
export const ON_POSTGRES = process.env.NAMECARD_TEST_DB === "postgres";

/** How much of a process's last output a failed test prints. */
const OUTPUT_SHOWN = 6_000;

/**
 * The processes a test file starts. Whatever a test leaves running is ended
 * after it, so a failed assertion never leaves a server holding a port or a
 * data directory; when the test failed (a timeout included), the end of each
 * one's output is printed first, since a failure seen only in CI has nothing
 * else to go on. Says so when the build these tests run is missing.
 */
export function startedProcesses(what: string, options: { signal?: NodeJS.Signals } = {}): Running[] {
  if (!SERVER_BUILT) console.warn(`SKIPPED: ${what} need \`npm run build\` first`);
  const started: Running[] = [];
  afterEach(async (context) => {
    const running = started.splice(0);
    if (context.task.result?.state !== "pass") {
      for (const [index, server] of running.entries()) {
        // Straight to stderr: the tests' console refuses unexpected errors.
        process.stderr.write(
          `[${what}] "${context.task.name}" failed; the end of process ${index + 1}'s output:\n${server.output().slice(-OUTPUT_SHOWN)}\n`,
        );
      }
    }
    await Promise.all(running.map((server) => stop(server, options.signal ?? "SIGKILL")));
  });
  return started;
}
