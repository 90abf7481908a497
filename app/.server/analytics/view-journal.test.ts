import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { adoptJournals, ViewJournal } from "./view-journal";

const journalDir = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), "namecard-journal-")), "views");
const bytesIn = (dir: string) =>
  fs.readdirSync(dir).reduce((sum, name) => sum + fs.statSync(path.join(dir, name)).size, 0);

describe("the journal of counted views", () => {
  it("gives back, at the next start, exactly the views that had not committed", () => {
    const dir = journalDir();
    const { journal } = ViewJournal.open<{ n: number }>(dir);
    const segments = Array.from({ length: 5 }, (_, n) => journal.append({ n }));
    journal.committed(segments[0]!, 2);
    journal.close();
    // A line cut short by a crash is not a view.
    fs.appendFileSync(path.join(dir, fs.readdirSync(dir)[0]!), '{"n":');

    const { left } = ViewJournal.open<{ n: number }>(dir);
    // Which views of a segment committed is not known, only how many: a view written twice is
    // refused by the database (one view per viewer per 30 minutes), so all of them come back.
    expect(left.map((entry) => entry.view)).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
  });

  it("keeps its files small while views keep coming, and leaves nothing once all have committed", () => {
    const dir = journalDir();
    const { journal } = ViewJournal.open<{ n: number }>(dir);
    let pending: string[] = [];
    for (let n = 0; n < 45_000; n++) {
      pending.push(journal.append({ n }));
      // Batches commit while views keep arriving: never a moment with none waiting.
      if (pending.length === 600) {
        for (const segment of pending.splice(0, 500)) journal.committed(segment, 1);
      }
    }
    expect(fs.readdirSync(dir).length).toBeLessThanOrEqual(2);
    expect(bytesIn(dir)).toBeLessThan(200_000);
    for (const segment of pending) journal.committed(segment, 1);
    pending = [];
    expect(bytesIn(dir)).toBe(0);
    journal.close();
    expect(ViewJournal.open(dir).left).toEqual([]);
  });

  it("gives the first process the views of a process that no longer runs when fewer run than before", () => {
    const dir = journalDir();
    for (const slot of [2, 3]) {
      const { journal } = ViewJournal.open<{ slot: number }>(path.join(dir, `process-${slot}`));
      journal.append({ slot });
      journal.close();
    }
    // Two processes now: the second keeps its own journal, the third's comes to the first.
    adoptJournals(dir, 2);
    expect(ViewJournal.open<{ slot: number }>(dir).left.map((entry) => entry.view)).toEqual([{ slot: 3 }]);
    expect(fs.readdirSync(dir).filter((name) => name.startsWith("process-"))).toEqual(["process-2"]);
    expect(ViewJournal.open<{ slot: number }>(path.join(dir, "process-2")).left.map((entry) => entry.view)).toEqual([
      { slot: 2 },
    ]);
  });
});
