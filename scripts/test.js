// `npm test`: the whole suite, in the order that fails fastest.
import { spawnSync } from "node:child_process";

const steps = [
  ["typecheck", "npm", ["run", "--silent", "typecheck"]],
  ["unit and server tests", "npx", ["vitest", "run"]],
  ["end-to-end tests", "node", ["scripts/e2e.js"]],
];

for (const [name, command, args] of steps) {
  console.info(`\n▶ ${name}`);
  const result = spawnSync(command, args, { stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`\n✖ ${name} failed`);
    process.exit(result.status ?? 1);
  }
}
console.info("\n✔ all tests passed");
