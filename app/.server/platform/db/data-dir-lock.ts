import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { StartupError } from "../startup-error";

/**
 * One process per embedded database (docs/decisions/014-one-owner-per-data-directory.md).
 * PGlite has no lock of its own: two processes on one data directory each see
 * only their own writes and leave rows missing from the indexes. Whatever opens
 * the directory takes this lock first: a file created atomically beside it that
 * names its holder. A lock whose holder is gone is taken over.
 */
type Holder = {
  pid: number;
  host: string;
  command: string;
  /** When the process started, in clock ticks since boot (Linux), so a reused PID is told apart. */
  startTicks: number | null;
  bootId: string | null;
  since: string;
};

function readProcessStartTicks(pid: number | "self"): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name may hold spaces and parentheses: fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[19]);
    return Number.isFinite(ticks) ? ticks : null;
  } catch {
    return null;
  }
}

function readBootId(): string | null {
  try {
    return fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    return null;
  }
}

function describeCommand() {
  const script = process.argv[1];
  return script ? `node ${path.relative(process.cwd(), script) || script}` : "node";
}

function thisProcess(): Holder {
  return {
    pid: process.pid,
    host: os.hostname(),
    command: describeCommand(),
    startTicks: readProcessStartTicks("self"),
    bootId: readBootId(),
    since: new Date().toISOString(),
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether the holder named in a lock is certainly gone. A lock from another machine is never judged. */
function isStale(holder: Holder): boolean {
  if (holder.host !== os.hostname()) return false;
  const bootId = readBootId();
  if (holder.bootId && bootId && holder.bootId !== bootId) return true;
  if (!isAlive(holder.pid)) return true;
  if (holder.startTicks !== null) {
    const ticks = readProcessStartTicks(holder.pid);
    if (ticks !== null && ticks !== holder.startTicks) return true;
  }
  return false;
}

function readHolder(file: string): { holder: Holder | null; ino: number } | null {
  let text: string;
  let ino: number;
  try {
    ino = fs.statSync(file).ino;
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  try {
    return { holder: JSON.parse(text) as Holder, ino };
  } catch {
    // Half-written by a process that died while creating it.
    return { holder: null, ino };
  }
}

export class DataDirectoryInUseError extends StartupError {
  override name = "DataDirectoryInUseError";
}

function inUseMessage(directory: string, holder: Holder) {
  const where = holder.host === os.hostname() ? "" : ` on host ${holder.host}`;
  const since = holder.since ? ` since ${holder.since}` : "";
  const shown = displayPath(directory);
  return (
    `[data] The database in ${shown} is in use by process ${holder.pid}${where} (${holder.command})${since}: ` +
    `stop that process first, or set DATA_DIR to another folder.` +
    (where ? ` If it no longer runs there, delete ${path.join(shown, path.basename(lockFileOf(directory)))}.` : "")
  );
}

/** A path as the operator would write it: relative inside the working folder, absolute outside. */
function displayPath(target: string) {
  const relative = path.relative(process.cwd(), target);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : target;
}

function lockFileOf(databaseDir: string) {
  return `${databaseDir}.lock`;
}

export type DataDirectoryLock = { file: string; release(): void };

/**
 * Takes the lock for a database directory or throws a `DataDirectoryInUseError`
 * whose message is the one line an operator needs.
 */
export function lockDataDirectory(databaseDir: string): DataDirectoryLock {
  const file = lockFileOf(databaseDir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const me = thisProcess();
  const content = `${JSON.stringify(me)}\n`;
  for (let attempt = 0; attempt < 5; attempt++) {
    // Written whole under a private name, then linked into place: link() fails
    // when the lock exists, so exactly one process wins and no one reads half a file.
    const draft = `${file}.${process.pid}-${randomBytes(4).toString("hex")}`;
    try {
      // On a full disk the draft is made but not written: `finally` removes it all the same.
      fs.writeFileSync(draft, content, { flag: "wx", mode: 0o600 });
      fs.linkSync(draft, file);
      return { file, release: () => releaseLock(file, me) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      fs.rmSync(draft, { force: true });
    }
    const current = readHolder(file);
    if (!current) continue; // released meanwhile: try again
    if (current.holder && !isStale(current.holder)) {
      throw new DataDirectoryInUseError(inUseMessage(databaseDir, current.holder));
    }
    takeOver(file, current.ino);
  }
  throw new DataDirectoryInUseError(
    `[data] Could not take the lock ${file}: other processes keep taking it. Stop them, or set DATA_DIR to another folder.`,
  );
}

/**
 * Moves a stale lock aside. Two processes may judge the same lock stale at
 * once: each renames to a private name and checks it moved the file it judged,
 * so a fresh lock taken meanwhile by the other is put back, never deleted.
 */
function takeOver(file: string, staleIno: number) {
  const aside = `${file}.stale-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    fs.renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  if (fs.statSync(aside).ino !== staleIno) {
    try {
      fs.linkSync(aside, file);
    } catch {
      // Another fresh lock is in place already; ours to drop is only the copy.
    }
  } else {
    console.warn(`[data] took over ${path.basename(file)} left by a process that is gone`);
  }
  fs.rmSync(aside, { force: true });
}

function releaseLock(file: string, me: Holder) {
  const current = readHolder(file);
  if (current?.holder?.pid === me.pid && current.holder.since === me.since) fs.rmSync(file, { force: true });
}
