import v8 from "node:v8";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { DurableNodeFS } from "./durable-fs";

/** PGlite needs its extensions loaded when it is created; loading them later fails. */
const PGLITE_EXTENSIONS = { pg_trgm, unaccent };

/**
 * PGlite runs inside this process, so PostgreSQL's shared buffers are this
 * process's memory, set aside in full at start: the default 128 MB would be
 * half of a small server. Pages beyond 16 MB are read back from the operating
 * system's file cache, which the kernel shares and reclaims.
 * See docs/decisions/022-memory-on-a-small-server.md.
 */
const PGLITE_MEMORY = ["-c", "shared_buffers=16MB"];

/**
 * PGlite starts PostgreSQL with `-F` (no fsync). An answered edit must survive
 * a power cut, so syncing is on, through `fsync()`: the one call the embedded
 * file system passes on to the disk (durable-fs.ts; `fdatasync` goes nowhere).
 * See docs/decisions/027-durable-embedded-commits.md.
 */
const PGLITE_DURABILITY = ["-c", "fsync=on", "-c", "synchronous_commit=on", "-c", "wal_sync_method=fsync"];

const PGLITE_START_PARAMS = [
  ...PGlite.defaultStartParams.filter((parameter) => parameter !== "-F"),
  ...PGLITE_MEMORY,
  ...PGLITE_DURABILITY,
];

/**
 * V8 compiles PGlite's WebAssembly on as many threads as it likes, and each
 * thread's allocator keeps what the compiler used long after, a large share of
 * an idle server's memory (docs/decisions/022-memory-on-a-small-server.md has
 * how much). One compiling thread makes the same code. Read when a module
 * is compiled, so it applies to the PGlite created next.
 */
v8.setFlagsFromString("--wasm-num-compilation-tasks=1");

export type EmbeddedOptions = {
  dataDir?: string;
  loadDataDir?: Blob | File;
  /** Hears that PostgreSQL stopped after a fault it cannot survive, with the reason. */
  onFault: (reason: string) => void;
};

/**
 * The embedded database as Namecard runs it: its extensions, its memory, and
 * commits that reach the disk. In this thread, or in the database thread
 * (database-thread.ts); the caller holds the data directory's lock.
 */
export function createEmbedded({ dataDir, loadDataDir, onFault }: EmbeddedOptions): Promise<PGlite> {
  return PGlite.create({
    dataDir,
    fs: dataDir ? new DurableNodeFS(dataDir, onFault) : undefined,
    loadDataDir,
    extensions: PGLITE_EXTENSIONS,
    startParams: PGLITE_START_PARAMS,
  });
}
