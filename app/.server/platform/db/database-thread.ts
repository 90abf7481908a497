import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { Results } from "@electric-sql/pglite";
import { deserializeError, type Reply, type ThreadRequest, type ThreadStart } from "./database-thread-protocol";

/**
 * The built database thread (vite.database-thread.config.ts builds it from
 * database-thread.worker.ts beside the server's bundle).
 */
const DATABASE_THREAD_FILE = path.resolve(process.cwd(), "build/server/database-thread.js");

const YOUNG_GENERATION_MB = 8;

type QueryOptions = { rowMode?: "array" | "object" };
type Query = <T>(sql: string, params?: unknown[], options?: QueryOptions) => Promise<Results<T>>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * The embedded database on a thread of its own, as the ORM's PGlite driver
 * sees it: `query`, `transaction` and `listen`, each a message to the thread.
 *
 * On the main thread, every statement (PostgreSQL compiled to WebAssembly)
 * ran between pages being rendered: a fifth of a signed-in page's time. On its
 * own thread it runs on the second core while the main thread renders
 * (docs/decisions/037-the-database-on-its-own-thread.md).
 *
 * Times, dates and intervals come back as text, as the ORM asks of PGlite.
 */
export class DatabaseThread {
  #worker: Worker;
  #nextId = 0;
  #nextTransaction = 0;
  #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  #closed = false;
  #closing: Promise<void> | undefined;
  /** The channels listened to, each with its listeners and the LISTEN that put it in place. */
  #listeners = new Map<string, { listeners: Set<(payload: string) => void>; listening: Promise<unknown> }>();
  /** The time the thread stored last, every second while it is not stuck in a statement. */
  readonly beat: BigInt64Array;

  private constructor(worker: Worker, beat: BigInt64Array) {
    this.#worker = worker;
    this.beat = beat;
  }

  /** Starts the thread and opens the database in `dataDir` (whose lock the caller holds). */
  static start(dataDir: string, onFault: (reason: string) => void): Promise<DatabaseThread> {
    if (!fs.existsSync(DATABASE_THREAD_FILE)) {
      return Promise.reject(new Error(`${DATABASE_THREAD_FILE} is missing: run npm run build`));
    }
    const beat = new BigInt64Array(new SharedArrayBuffer(8));
    Atomics.store(beat, 0, process.hrtime.bigint());
    const worker = new Worker(DATABASE_THREAD_FILE, {
      workerData: { dataDir, beat } satisfies ThreadStart,
      // What the thread allocates lives for one statement; a young generation of V8's default
      // size (up to 48 MB) only held more memory between collections.
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    const thread = new DatabaseThread(worker, beat);
    return new Promise((resolve, reject) => {
      let started = false;
      worker.on("message", (reply: Reply) => {
        if ("id" in reply) thread.#settle(reply);
        else if (reply.kind === "notification") {
          for (const listener of thread.#listeners.get(reply.channel)?.listeners ?? []) listener(reply.payload);
        } else if (reply.kind === "ready") {
          started = true;
          resolve(thread);
        } else if (reply.kind === "failed") reject(deserializeError(reply.error));
        else if (reply.kind === "fault") onFault(reply.reason);
      });
      worker.on("error", (error) => {
        if (!started) reject(error);
        else console.error(`[db] the database thread failed: ${error.message}`);
      });
      worker.on("exit", (code) => {
        const wasOpen = !thread.#closed;
        thread.#closed = true;
        for (const { reject: fail } of thread.#pending.values()) fail(new Error("The database thread ended."));
        thread.#pending.clear();
        if (!started) reject(new Error(`The database thread ended before the database opened (code ${code}).`));
        else if (wasOpen) onFault(`its thread ended (code ${code})`);
      });
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  query: Query = (sql, params, options) => this.#query(sql, params, options);

  /** Runs `work` in one transaction: committed when it returns, rolled back when it throws. */
  async transaction<T>(work: (tx: { query: Query }) => Promise<T>): Promise<T> {
    const tx = ++this.#nextTransaction;
    await this.#ask({ kind: "begin", tx });
    let result: T;
    try {
      result = await work({ query: (sql, params, options) => this.#query(sql, params, options, tx) });
    } catch (error) {
      await this.#ask({ kind: "end", tx, commit: false }).catch(() => {});
      throw error;
    }
    await this.#ask({ kind: "end", tx, commit: true });
    return result;
  }

  async listen(channel: string, listener: (payload: string) => void): Promise<() => Promise<void>> {
    let entry = this.#listeners.get(channel);
    if (!entry) {
      const started = {
        listeners: new Set<(payload: string) => void>(),
        listening: this.#ask({ kind: "listen", channel }),
      };
      this.#listeners.set(channel, started);
      // A LISTEN that failed leaves nothing behind: the next caller asks again.
      started.listening.catch(() => {
        if (this.#listeners.get(channel) === started) this.#listeners.delete(channel);
      });
      entry = started;
    }
    // A second caller waits for the same LISTEN to be in place.
    await entry.listening;
    const { listeners } = entry;
    listeners.add(listener);
    return async () => {
      listeners.delete(listener);
      if (listeners.size > 0 || this.#listeners.get(channel) !== entry) return;
      this.#listeners.delete(channel);
      if (!this.#closed) await this.#ask({ kind: "unlisten", channel });
    };
  }

  /** Closes the database, then ends the thread; every caller waits for the one close. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      if (this.#closed) return;
      try {
        await this.#ask({ kind: "close" });
      } finally {
        this.#closed = true;
        await this.#worker.terminate();
      }
    })();
    return this.#closing;
  }

  /** Milliseconds since the thread last stored its beat: above BEAT_EVERY_MS while it is inside a statement. */
  silentMs(): number {
    return Number(process.hrtime.bigint() - Atomics.load(this.beat, 0)) / 1e6;
  }

  #query<T>(sql: string, params: unknown[] | undefined, options: QueryOptions | undefined, tx?: number) {
    return this.#ask({ kind: "query", sql, params, rowMode: options?.rowMode ?? "object", tx }) as Promise<Results<T>>;
  }

  #ask(request: DistributiveOmit<ThreadRequest, "id">): Promise<unknown> {
    if (this.#closed) return Promise.reject(new Error("The database is closed."));
    const id = ++this.#nextId;
    return new Promise((resolve, reject) => {
      // Throws for a value that cannot be copied to the thread, before anything waits for it.
      this.#worker.postMessage({ ...request, id });
      this.#pending.set(id, { resolve, reject });
    });
  }

  #settle(reply: Extract<Reply, { id: number }>) {
    const waiting = this.#pending.get(reply.id);
    this.#pending.delete(reply.id);
    if (!waiting) return;
    if (reply.error) waiting.reject(deserializeError(reply.error));
    else waiting.resolve(reply.value);
  }
}
