// A real read-only folder. As an ordinary user, taking away the write bits is
// enough; root ignores them, so there the folder is made immutable (chattr +i),
// which refuses new files to root too.
import { execFileSync } from "node:child_process";
import fs from "node:fs";

const AS_ROOT = process.getuid?.() === 0;

export function makeReadOnly(dir: string) {
  if (AS_ROOT) execFileSync("chattr", ["+i", dir]);
  else fs.chmodSync(dir, 0o555);
}

export function makeWritable(dir: string) {
  if (AS_ROOT) execFileSync("chattr", ["-i", dir]);
  else fs.chmodSync(dir, 0o755);
}
