// Heap snapshots of a running server, and what grew between two of them.
//
// The server is started with `--heapsnapshot-signal=SIGUSR2` and a diagnostic
// directory; `takeHeapSnapshot` signals it and waits until the file is whole.
// `printHeapGrowth` groups every object of two snapshots by constructor (or by
// kind, for strings, arrays, code and closures) and prints the groups that
// grew the most, in bytes and in count: a leak is a group that grows minute
// after minute while the load stays the same.
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

type Snapshot = {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
};

type Group = { count: number; bytes: number };

/** Signals the server to write a heap snapshot and returns its file once written. */
export async function takeHeapSnapshot(child: ChildProcess, directory: string, healthUrl: string): Promise<string> {
  const before = new Set(fs.readdirSync(directory));
  child.kill("SIGUSR2");
  for (let attempt = 0; attempt < 1200; attempt++) {
    const written = fs.readdirSync(directory).find((name) => name.endsWith(".heapsnapshot") && !before.has(name));
    // The snapshot is written on the server's main thread: once the file
    // exists, the next answer from the server means it is complete.
    if (written && (await fetch(healthUrl).catch(() => undefined))?.ok) return path.join(directory, written);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("the server wrote no heap snapshot within 5 minutes");
}

/** Every object of a snapshot, grouped; also the heap's total. */
function groupsOf(file: string): { groups: Map<string, Group>; total: number } {
  const data = JSON.parse(fs.readFileSync(file, "utf8")) as Snapshot;
  const fields = data.snapshot.meta.node_fields;
  const types = data.snapshot.meta.node_types[0];
  const stride = fields.length;
  const typeAt = fields.indexOf("type");
  const nameAt = fields.indexOf("name");
  const sizeAt = fields.indexOf("self_size");
  const groups = new Map<string, Group>();
  let total = 0;
  for (let index = 0; index < data.nodes.length; index += stride) {
    const type = types[data.nodes[index + typeAt]!]!;
    const name = data.strings[data.nodes[index + nameAt]!]!;
    const bytes = data.nodes[index + sizeAt]!;
    const key = type === "object" || type === "native" ? name.slice(0, 60) : `(${type})`;
    const group = groups.get(key) ?? { count: 0, bytes: 0 };
    group.count += 1;
    group.bytes += bytes;
    groups.set(key, group);
    total += bytes;
  }
  return { groups, total };
}

/** Prints the groups that grew most from the first snapshot to the last. */
export function printHeapGrowth(files: { moment: string; file: string }[], top = 15) {
  if (files.length < 2) return;
  const read = files.map(({ moment, file }) => ({ moment, ...groupsOf(file) }));
  const first = read[0]!;
  const last = read.at(-1)!;
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  console.info("\n  heap snapshots (MB in objects the snapshot sees; typed arrays' memory included):");
  for (const { moment, total } of read) console.info(`  ${moment.padEnd(52)} ${mb(total).padStart(7)}`);
  const growth = [...last.groups].map(([key, group]) => {
    const before = first.groups.get(key) ?? { count: 0, bytes: 0 };
    return { key, bytes: group.bytes - before.bytes, count: group.count - before.count, now: group };
  });
  console.info(`\n  what grew most from "${first.moment}" to "${last.moment}":`);
  console.info(`  ${"group".padEnd(62)} ${"Δ MB".padStart(7)} ${"Δ count".padStart(9)} ${"MB now".padStart(7)}`);
  for (const row of growth.sort((a, b) => b.bytes - a.bytes).slice(0, top)) {
    console.info(
      `  ${row.key.padEnd(62)} ${mb(row.bytes).padStart(7)} ${String(row.count).padStart(9)} ${mb(row.now.bytes).padStart(7)}`,
    );
  }
}
