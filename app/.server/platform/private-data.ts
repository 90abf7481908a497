import fs from "node:fs";
import path from "node:path";
import { isMainThread } from "node:worker_threads";

/**
 * What Namecard keeps on disk is its user's alone (docs/decisions/025-private-data.md):
 * the embedded database's write-ahead log holds session and reset tokens and
 * password hashes, the outbox holds sign-in and invitation links, and a backup
 * holds all of it. Files are made 0600 and folders 0700 by the process's umask,
 * set before anything is written, and an installation made before that is
 * tightened at start.
 */
const PRIVATE_UMASK = 0o077;
const GROUP_AND_OTHERS = 0o077;

/** Files and folders made from now on by this process are its user's alone. */
export function makeNewFilesPrivate() {
  // A worker thread cannot set the umask; it shares the main thread's.
  if (isMainThread) process.umask(PRIVATE_UMASK);
}

export type Tightening = {
  /** Files and folders whose group and other permissions were taken away. */
  tightened: number;
  /** Those still open to others, because this user cannot change them (owned by someone else). */
  stillOpen: string[];
};

/**
 * Takes group and other permissions from `dir` and everything under it (the
 * owner's own bits are kept: a folder stays 0700, a file 0600). Symbolic links
 * are left as they are, and not followed.
 */
export function tightenTree(dir: string): Tightening {
  const result: Tightening = { tightened: 0, stillOpen: [] };
  const visit = (entry: string) => {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(entry);
    } catch {
      return; // gone meanwhile
    }
    if (stat.isSymbolicLink()) return;
    if (stat.mode & GROUP_AND_OTHERS) {
      try {
        fs.chmodSync(entry, stat.mode & 0o700);
        result.tightened++;
      } catch {
        result.stillOpen.push(entry);
      }
    }
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
    }
  };
  visit(dir);
  return result;
}

/**
 * At start: new files private, and DATA_DIR made private if an earlier
 * version (or a copy) left it open, with one line saying so. Whatever this
 * user cannot tighten is reported loudly.
 */
export function keepDataDirectoryPrivate(dataDir: string) {
  makeNewFilesPrivate();
  const { tightened, stillOpen } = tightenTree(dataDir);
  if (tightened > 0) {
    console.info(`[data] ${dataDir}: ${tightened} files and folders were open to other users; now only this user's`);
  }
  if (stillOpen.length > 0) {
    console.warn(
      `[data] WARNING: ${stillOpen.length} files in ${dataDir} stay readable by other users of this machine and cannot be changed by this user (first: ${stillOpen[0]}). They may hold sign-in tokens and password hashes: give them to the user running Namecard (chown), or move DATA_DIR.`,
    );
  }
}
