import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * How long something took depends on the machine: the suite must pass on a
 * busy 2-core one. Where an answer must not wait for something, a test holds
 * that thing and proves the answer came first; figures belong to bench/.
 */
const ROOTS = ["tests", "app", "scripts"];
const CLOCK = String.raw`(?:Date|performance)\.now\(\)`;

function testFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name.startsWith(".") ? [] : testFiles(full);
    return /\.(test|spec)\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** The lines of `text` that compare a time something took with a bound. */
function clockBounds(text: string): string[] {
  const found: string[] = [];
  // A measured time compared where it is measured: expect(Date.now() - started).toBeLessThan(…)
  for (const match of text.matchAll(new RegExp(String.raw`expect\([^;]*${CLOCK}\s*-[^;]*\)\s*\.toBeLessThan`, "g"))) {
    found.push(match[0]);
  }
  // …or a name that holds one, or a function's result that is one, compared later.
  const names = [...text.matchAll(new RegExp(String.raw`(\w+)\s*[=:]\s*\(?\s*${CLOCK}\s*-\s*[a-z]`, "g"))].map(
    (match) => match[1],
  );
  for (const name of names) {
    const compared = new RegExp(String.raw`expect\(\s*(?:\w+\.)?${name}\b[^;]*\.toBeLessThan|\.${name}\s*[<>]`, "g");
    for (const match of text.matchAll(compared)) found.push(match[0]);
  }
  for (const match of text.matchAll(new RegExp(String.raw`return\s+${CLOCK}\s*-\s*[a-z]\w*;`, "g"))) {
    found.push(match[0]);
  }
  return found;
}

describe("the suite's own shape", () => {
  it("holds no test that compares how long something took with a bound", () => {
    // This file's own examples are the only ones allowed.
    const files = ROOTS.flatMap(testFiles).filter((file) => path.resolve(file) !== path.resolve(import.meta.filename));
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.flatMap((file) =>
      clockBounds(fs.readFileSync(file, "utf8")).map((line) => `${file}: ${line}`),
    );
    expect(offenders).toEqual([]);
  });

  it("recognises the ways a test would time something", () => {
    expect(clockBounds("const started = Date.now();\nexpect(Date.now() - started).toBeLessThan(20_000);")).toHaveLength(
      1,
    );
    expect(
      clockBounds("const waited = performance.now() - started;\nexpect(waited).toBeLessThan(10_000);"),
    ).toHaveLength(1);
    expect(clockBounds("return { ms: performance.now() - from };\nprobes.filter((p) => p.ms > LIMIT)")).toHaveLength(1);
    expect(clockBounds("const timed = () => {\n  return Date.now() - started;\n};")).toHaveLength(1);
    expect(clockBounds("const shownAt = Date.now() - MIN_FILL_MS - 2_000;")).toEqual([]);
  });
});
