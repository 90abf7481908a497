// `npm test`: the whole suite, in the order that fails fastest.
import { spawnSync } from "node:child_process";

// The build comes before the server tests: one of them starts real server processes.
// Route types are generated, not committed: knip and tsc both need them.
const steps = [
  ["route types", "npx", ["react-router", "typegen"]],
  ["lint and format", "npx", ["biome", "check", "."]],
  ["unused code and dependencies", "npx", ["knip"]],
  ["typecheck", "npm", ["run", "--silent", "typecheck"]],
  ["build", "npx", ["react-router", "build"]],
  ["unit and server tests", "npx", ["vitest", "run"]],
  ["end-to-end tests", "node", ["scripts/e2e.js"], { NAMECARD_SKIP_BUILD: "1" }],
];

for (const [name, command, args, env = {}] of steps) {
  console.info(`\n▶ ${name}`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) {
    console.error(`\n✖ ${name} failed`);
    process.exit(result.status ?? 1);
  }
}
console.info("\n✔ all tests passed");
