// An unexpected `console.error` fails the test that caused it: the server logs
// an error only when something went wrong, and a test that passes while the
// server complains hides a defect. A test that provokes an error on purpose
// says so with `expectConsoleError`, and then fails if the error never comes.
import { format } from "node:util";
import { afterEach, beforeEach, vi } from "vitest";

let expected: { pattern: RegExp; seen: boolean }[] = [];
let unexpected: string[] = [];

/** This test provokes an error log matching `pattern`: it must appear, and is not a failure. */
export function expectConsoleError(pattern: RegExp) {
  expected.push({ pattern, seen: false });
}

/** Installs the guard for every test of the file (a Vitest setup file calls this). */
export function guardConsoleErrors() {
  beforeEach(() => {
    expected = [];
    unexpected = [];
    const original = console.error;
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
      const message = format(...args);
      const match = expected.find(({ pattern }) => pattern.test(message));
      if (match) match.seen = true;
      else unexpected.push(message);
      original(...args);
    });
  });

  afterEach(() => {
    vi.mocked(console.error).mockRestore();
    const missing = expected.filter(({ seen }) => !seen).map(({ pattern }) => String(pattern));
    const problems = [
      ...unexpected.map((message) => `unexpected console.error: ${message}`),
      ...missing.map((pattern) => `expected a console.error matching ${pattern}, but none came`),
    ];
    if (problems.length) throw new Error(problems.join("\n"));
  });
}
