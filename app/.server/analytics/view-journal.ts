import fs from "node:fs";
import path from "node:path";

/**
 * Counted views, on disk from the moment they are counted until their batch
 * commits (docs/decisions/018-reused-cards-and-batched-views.md). A visitor
 * is shown their view as counted at once, and the batch that stores it may
 * wait on a slow database; without this a crash or a stop while the database
 * refused writes lost every view waiting.
 *
 * Each view is one line appended to the current segment file. A segment is
 * deleted (or, when current, emptied) once every view in it has committed; a
 * segment past `SEGMENT_LINES` gives way to a new one, so a database that
 * stays slow never makes one file grow for ever. The current segment is
 * synced to the disk at most `SYNC_AFTER_MS` after a write: a process killed
 * outright loses none (the kernel holds what was written), a power cut at
 * most that much. At start, every segment left is read back and written.
 */
const SEGMENT_LINES = 10_000;
const SYNC_AFTER_MS = 250;

export type JournalEntry<T> = { segment: string; view: T };

type Segment = { name: string; fd: number; lines: number; pending: number };

export class ViewJournal<T> {
  private current: Segment | undefined;
  /** Segments that still hold views not yet committed, by name. */
  private readonly open = new Map<string, Segment>();
  private syncTimer: ReturnType<typeof setTimeout> | undefined;
  private sequence = 0;

  private constructor(private readonly dir: string) {}

  /** Opens the journal in `dir` and reads back what a previous process left uncommitted. */
  static open<T>(dir: string): { journal: ViewJournal<T>; left: JournalEntry<T>[] } {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const journal = new ViewJournal<T>(dir);
    const left: JournalEntry<T>[] = [];
    for (const name of fs
      .readdirSync(dir)
      .filter((file) => file.endsWith(".ndjson"))
      .sort()) {
      const lines = fs.readFileSync(path.join(dir, name), "utf8").split("\n");
      let pending = 0;
      for (const line of lines) {
        // A line cut short by the crash was never complete: its view was not shown as counted.
        if (!line.endsWith("}")) continue;
        try {
          left.push({ segment: name, view: JSON.parse(line) as T });
          pending++;
        } catch {
          // As above: only whole lines count.
        }
      }
      if (pending === 0) fs.rmSync(path.join(dir, name), { force: true });
      else journal.open.set(name, { name, fd: -1, lines: pending, pending });
    }
    return { journal, left };
  }

  /** Writes one counted view down before it is shown as counted; returns its segment. */
  append(view: T): string {
    let segment = this.current;
    if (!segment || segment.lines >= SEGMENT_LINES) segment = this.startSegment();
    fs.writeSync(segment.fd, `${JSON.stringify(view)}\n`);
    segment.lines++;
    segment.pending++;
    this.syncSoon();
    return segment.name;
  }

  /** `count` views of `segment` have committed. */
  committed(segment: string, count: number) {
    const entry = this.open.get(segment);
    if (!entry) return;
    entry.pending -= count;
    if (entry.pending > 0) return;
    if (entry === this.current) {
      // Every view in it is stored: start the same file afresh rather than make another.
      fs.ftruncateSync(entry.fd, 0);
      entry.lines = 0;
      entry.pending = 0;
      return;
    }
    this.open.delete(segment);
    if (entry.fd >= 0) fs.closeSync(entry.fd);
    fs.rmSync(path.join(this.dir, segment), { force: true });
  }

  /** Syncs and closes the files; what is still uncommitted stays for the next start. */
  close() {
    clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
    for (const entry of this.open.values()) {
      if (entry.fd < 0) continue;
      fs.fsyncSync(entry.fd);
      fs.closeSync(entry.fd);
      entry.fd = -1;
    }
    this.current = undefined;
  }

  private startSegment(): Segment {
    const name = `views-${Date.now()}-${process.pid}-${this.sequence++}.ndjson`;
    const segment: Segment = {
      name,
      fd: fs.openSync(path.join(this.dir, name), "a", 0o600),
      lines: 0,
      pending: 0,
    };
    // A full segment stays open until its views commit; it is closed then, and deleted.
    this.open.set(name, segment);
    this.current = segment;
    return segment;
  }

  private syncSoon() {
    if (this.syncTimer) return;
    this.syncTimer = setTimeout(() => {
      this.syncTimer = undefined;
      const fd = this.current?.fd;
      if (fd !== undefined && fd >= 0) fs.fsync(fd, () => {});
    }, SYNC_AFTER_MS);
    this.syncTimer.unref();
  }
}

/**
 * Moves into `dir` the segments of journals no process keeps any more: those of
 * the slots above `slots`, left when fewer processes run than before
 * (server/processes.js). They are then read back with `dir`'s own.
 */
export function adoptJournals(dir: string, slots: number) {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir)) {
    const slot = /^process-(\d+)$/.exec(entry)?.[1];
    if (!slot || Number(slot) <= slots) continue;
    const folder = path.join(dir, entry);
    for (const file of fs.readdirSync(folder).filter((name) => name.endsWith(".ndjson"))) {
      fs.renameSync(path.join(folder, file), path.join(dir, file));
    }
    fs.rmSync(folder, { recursive: true, force: true });
  }
}
