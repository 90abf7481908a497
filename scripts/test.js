// The tests, in the order that fails fastest (docs/decisions/042-a-fast-test-command-and-the-whole-suite.md).
//
// `npm test`: the checks and the tests that need neither a build, PostgreSQL nor
// a browser: the route types, lint, unused code, the typecheck, then the unit,
// component and server tests on the embedded database.
//
// `npm run test:all` (`--all`), what CI runs: the whole suite. The machine's
// cores are the limit, so steps that need nothing from each other run side by
// side in lanes, and a phase ends when all its lanes have:
//
// 1. the route types (knip and tsc read them);
// 2. lint and format, then unused code | the typecheck | the build;
// 3. the unit, component and server tests, and the built server's process
//    tests, on each database | the browser tests' database, then the container
//    image, built and driven;
// 4. the browser tests.
//
// With NAMECARD_SECOND_NODE set to another Node binary (CI sets it to Node 24),
// what depends on the Node version runs once more on it, in the same lane.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";

const VITEST = "node_modules/vitest/vitest.mjs";
const ALL = process.argv.includes("--all");
const secondNode = ALL ? process.env.NAMECARD_SECOND_NODE : undefined;

/** Runs one step; its output goes straight through, or is held until it ends when it shares the screen. */
function run({ name, command, args, env = {} }, { live }) {
  const started = performance.now();
  if (live) console.info(`\n▶ ${name}`);
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: live ? "inherit" : ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...env },
    });
    let output = "";
    if (!live) {
      child.stdout.on("data", (chunk) => (output += chunk));
      child.stderr.on("data", (chunk) => (output += chunk));
    }
    const finish = (ok) => {
      const seconds = (performance.now() - started) / 1000;
      if (!live) process.stdout.write(`\n▶ ${name} (${seconds.toFixed(1)} s)\n${output}`);
      else console.info(`◀ ${name} (${seconds.toFixed(1)} s)`);
      resolve({ name, ok, seconds });
    };
    child.on("error", (error) => {
      output += `${error.message}\n`;
      finish(false);
    });
    child.on("close", (code) => finish(code === 0));
  });
}

/** Runs a lane's steps one after another, stopping at the first failure. */
async function runLane(steps, live) {
  const results = [];
  for (const step of steps) {
    const result = await run(step, { live });
    results.push(result);
    if (!result.ok) break;
  }
  return results;
}

// The second Node runs what depends on the Node version, on the embedded database: the unit
// tests (crypto, streams, parsers), and the built server as clients and proxies meet it
// (its HTTP and its limits, PGlite's WebAssembly, sessions, a graceful stop). The other
// tests (domain rules, hostile bodies, load, backups, restarts, file modes) depend on the
// code and the operating system more than on Node, and run once.
const SECOND_NODE_RUNS = [
  { name: "unit tests", args: ["--project", "unit"] },
  {
    name: "the built server's HTTP",
    args: [
      "--project",
      "process:pglite",
      ...["server-process", "oversized-bodies", "graceful-stop"].map((file) => `tests/process/${file}.test.ts`),
    ],
  },
];

const vitest = (name, node, args = [], env = {}) => ({ name, command: node, args: [VITEST, "run", ...args], env });

/** Phases of lanes of steps; the last lane of a phase shows its output as it comes. */
const wholeSuite = [
  // Route types are generated, not committed: knip and tsc both need them.
  [[{ name: "route types", command: "npx", args: ["react-router", "typegen"] }]],
  [
    [
      { name: "lint and format", command: "npx", args: ["biome", "check", "."] },
      { name: "unused code and dependencies", command: "npx", args: ["knip"] },
    ],
    [{ name: "typecheck", command: "npx", args: ["tsc"] }],
    [{ name: "build", command: "npm", args: ["run", "build"] }],
  ],
  [
    [
      { name: "browser tests' database", command: process.execPath, args: ["tests/e2e/serve.js", "--prepare"] },
      vitest("container image", process.execPath, ["--project", "image"]),
    ],
    [
      vitest("unit and server tests", process.execPath, ["--project", "!image"]),
      ...(secondNode
        ? SECOND_NODE_RUNS.map(({ name, args }) => vitest(`${name} on ${secondNode}`, secondNode, args))
        : []),
    ],
  ],
  [
    [
      {
        name: "end-to-end tests",
        command: process.execPath,
        args: ["scripts/e2e.js"],
        env: { NAMECARD_SKIP_BUILD: "1", NAMECARD_E2E_PREPARED: "1" },
      },
    ],
  ],
];

/** The checks, then the tests that need neither a build, PostgreSQL nor a browser. */
const fastSuite = [
  wholeSuite[0],
  // Lint, unused code and the typecheck, without the build.
  wholeSuite[1].slice(0, 2),
  [
    [
      // NAMECARD_NO_BUILD leaves out the check of the browser build, which this run does not make.
      vitest(
        "unit, component and server tests on the embedded database",
        process.execPath,
        ["--project", "unit", "--project", "component", "--project", "server:pglite"],
        { NAMECARD_NO_BUILD: "1" },
      ),
    ],
  ],
];

const phases = ALL ? wholeSuite : fastSuite;
const started = performance.now();
const results = [];
for (const lanes of phases) {
  const finished = (await Promise.all(lanes.map((steps, index) => runLane(steps, index === lanes.length - 1)))).flat();
  results.push(...finished);
  const failed = finished.filter((result) => !result.ok);
  if (failed.length) {
    console.error(`\n✖ ${failed.map((result) => result.name).join(", ")} failed`);
    process.exit(1);
  }
}

console.info("\nTimes (the steps of one phase ran side by side):");
for (const { name, seconds } of results) console.info(`  ${name.padEnd(48)} ${seconds.toFixed(1)} s`);
console.info(`  ${"total".padEnd(48)} ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.info(
  ALL ? "\n✔ all tests passed" : "\n✔ the checks and fast tests passed; `npm run test:all` runs the whole suite",
);
