import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { onTestFinished } from "vitest";
import { scratchDir } from "./server-process";

/**
 * A file system of `megabytes` that a test can fill: a tmpfs mounted on a
 * scratch folder for the test, unmounted after it. Mounting needs root (or
 * CAP_SYS_ADMIN); where that is refused the caller skips, saying so.
 */
export function smallDisk(megabytes: number): string | null {
  const folder = scratchDir("namecard-small-disk-");
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${megabytes}m,mode=0700`, "tmpfs", folder]);
  if (mounted.status !== 0) {
    console.warn(`\n[tests] SKIPPED: a small disk could not be mounted (${mounted.stderr.toString().trim()})\n`);
    return null;
  }
  onTestFinished(() => {
    spawnSync("umount", ["-l", folder]);
    fs.rmSync(folder, { recursive: true, force: true });
  });
  return folder;
}

/** Fills the disk under `folder` until `leaveKilobytes` are free. */
export function fillDisk(folder: string, leaveKilobytes = 0) {
  const free = Math.floor((fs.statfsSync(folder).bavail * fs.statfsSync(folder).bsize) / 1024);
  const filler = fs.openSync(`${folder}/filler`, "a");
  const block = Buffer.alloc(1024 * 1024);
  try {
    for (let left = free - leaveKilobytes; left > 0; left -= block.length / 1024) {
      fs.writeSync(filler, block, 0, Math.min(block.length, left * 1024));
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  } finally {
    fs.closeSync(filler);
  }
}

/** Gives the space taken by `fillDisk` back. */
export function freeDisk(folder: string) {
  fs.rmSync(`${folder}/filler`, { force: true });
}
