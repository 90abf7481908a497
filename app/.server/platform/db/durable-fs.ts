import fs from "node:fs";
import type { PGlite } from "@electric-sql/pglite";
import { NodeFS } from "@electric-sql/pglite/nodefs";

type EmscriptenOptions = Parameters<NodeFS["init"]>[1];
type EmscriptenStream = { nfd?: number };
type EmscriptenModule = { NODEFS: { stream_ops: { fsync?: (stream: EmscriptenStream) => number } } };

/**
 * The embedded database's files, with `fsync` that reaches the disk, and a
 * call when the database inside stops.
 *
 * PGlite's file system forwards reads and writes to Node but drops `fsync`,
 * so a commit sits in the kernel's cache and a power cut loses it even after
 * the edit was answered. This one hands `fsync` to the operating system, and
 * the start parameters in client.ts turn PostgreSQL's own syncing back on
 * (see docs/decisions/027-durable-embedded-commits.md).
 *
 * PostgreSQL ends itself after a fault it cannot survive (a PANIC); inside
 * this process that leaves a database that answers nothing. `onFault` hears
 * of it with the reason.
 */
export class DurableNodeFS extends NodeFS {
  constructor(
    dataDir: string,
    private readonly onFault: (reason: string) => void,
  ) {
    super(dataDir);
  }

  override async init(pg: PGlite, options: EmscriptenOptions) {
    const result = await super.init(pg, options);
    const preRun = [...(result.emscriptenOpts.preRun ?? []), syncToDisk];
    // A PANIC ends in PostgreSQL's abort(), which calls this before the database stops for good.
    const onAbort = (what: unknown) => this.onFault(`aborted: ${String(what)}`);
    return { emscriptenOpts: { ...result.emscriptenOpts, preRun, onAbort } };
  }
}

function syncToDisk(module: unknown) {
  // Every node of the mounted tree shares this one table of stream operations.
  (module as EmscriptenModule).NODEFS.stream_ops.fsync = (stream) => {
    if (stream.nfd !== undefined) fs.fsyncSync(stream.nfd);
    return 0;
  };
}
