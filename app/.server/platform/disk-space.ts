import fs from "node:fs";

/**
 * Free space in DATA_DIR as a condition of its own
 * (docs/decisions/040-faults-answered-honestly.md). The embedded database
 * ends the process when it cannot write its log, so changes stop while a
 * reserve is still free: the database is set read-only, reads go on, and
 * changes are taken again once enough space is back, without a restart.
 */

/** What a state change hands the watcher's owner. */
export type DiskSpace = { directory: string; freeBytes: number; reserveBytes: number };

/** Space above the reserve that must be free before changes are taken again, so that the state does not flap. */
const RESUME_MARGIN_BYTES = 8 * 1024 * 1024;
const CHECK_EVERY_MS = 1_000;

let low: DiskSpace | null = null;

/** Whether changes are refused for want of disk space, and the figures that said so. */
export function diskSpaceLow(): DiskSpace | null {
  return low;
}

export function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The log line and page text for a disk below the reserve, naming the disk and the bytes needed. */
export function lowSpaceLine({ directory, freeBytes, reserveBytes }: DiskSpace): string {
  return `[disk] DATA_DIR ${directory} has ${megabytes(freeBytes)} free, less than the ${megabytes(reserveBytes)} the embedded database keeps in reserve: changes are refused until ${megabytes(reserveBytes + RESUME_MARGIN_BYTES - freeBytes)} more are free; pages are still read`;
}

/**
 * Looks at the free space of `directory` every second: `onLow` when it falls
 * under `reserveBytes`, `onRecovered` when the reserve and a margin are free
 * again. Each change of state is logged in one line. A check that fails (the
 * folder is gone or unreadable) changes nothing: health reports it.
 */
export async function watchDiskSpace(options: {
  directory: string;
  reserveBytes: number;
  onLow: (space: DiskSpace) => Promise<void>;
  onRecovered: (space: DiskSpace) => Promise<void>;
}): Promise<() => Promise<void>> {
  const { directory, reserveBytes } = options;
  let checking: Promise<void> = Promise.resolve();
  const check = async () => {
    let freeBytes: number;
    try {
      const space = await fs.promises.statfs(directory);
      freeBytes = space.bavail * space.bsize;
    } catch {
      return;
    }
    const space = { directory, freeBytes, reserveBytes };
    if (!low && freeBytes < reserveBytes) {
      // Low only once the database refuses changes: a switch that failed is tried again at the next look.
      await options.onLow(space);
      low = space;
      console.error(lowSpaceLine(space));
    } else if (low && freeBytes >= reserveBytes + RESUME_MARGIN_BYTES) {
      await options.onRecovered(space);
      low = null;
      console.info(`[disk] DATA_DIR ${directory} has ${megabytes(freeBytes)} free again: changes are taken`);
    } else if (low) {
      low = space;
    }
  };
  const timer = setInterval(() => {
    checking = checking.then(check).catch((error: unknown) => {
      console.error(`[disk] the database could not be switched: ${(error as Error).message}`);
    });
  }, CHECK_EVERY_MS);
  timer.unref();
  // The first look is made before the server listens: started on a nearly full disk, it refuses changes from its first request.
  checking = check();
  await checking;
  return async () => {
    clearInterval(timer);
    await checking.catch(() => {});
  };
}
