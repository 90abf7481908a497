import { parentPort, workerData } from "node:worker_threads";
import { type PGlite, type Transaction, types } from "@electric-sql/pglite";
import { BEAT_EVERY_MS, serializeError, type ThreadRequest, type ThreadStart } from "./database-thread-protocol";
import { createEmbedded } from "./embedded";

/**
 * The embedded database's own thread (database-thread.ts starts it, from
 * `build/server/database-thread.js`). It owns PGlite and answers the main
 * thread's requests one message at a time; PGlite runs one statement at a time
 * and holds other statements back while a transaction is open, as it does on
 * the main thread.
 */

/**
 * Times, dates and intervals come back as PostgreSQL wrote them: the ORM reads
 * them into its own types (the parsers its PGlite driver passes with each query).
 */
const AS_WRITTEN = (value: string) => value;
const PARSERS = Object.fromEntries(
  [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182].map((oid) => [
    oid,
    AS_WRITTEN,
  ]),
);

/** Thrown inside a transaction to end it with ROLLBACK. */
const ROLL_BACK = Symbol("roll back");

const port = parentPort;
if (!port) throw new Error("database-thread.worker runs as a worker thread");
const start = workerData as ThreadStart;

const open = new Map<number, { tx: Transaction; finish: (commit: boolean) => void; done: Promise<unknown> }>();
/** Transactions asked for and not yet begun: their statements wait for them. */
const beginning = new Map<number, Promise<void>>();
const listening = new Map<string, () => Promise<void>>();

// A statement runs to its end without yielding: a beat missed for long is a stuck database.
const beating = setInterval(() => Atomics.store(start.beat, 0, process.hrtime.bigint()), BEAT_EVERY_MS);

let database: PGlite;
try {
  database = await createEmbedded({
    dataDir: start.dataDir,
    onFault: (reason) => port.postMessage({ kind: "fault", reason }),
  });
  Atomics.store(start.beat, 0, process.hrtime.bigint());
  port.postMessage({ kind: "ready" });
} catch (error) {
  port.postMessage({ kind: "failed", error: serializeError(error) });
  process.exit(1);
}

port.on("message", (request: ThreadRequest) => {
  answer(request).then(
    (value) => port.postMessage({ id: request.id, value }),
    (error) => port.postMessage({ id: request.id, error: serializeError(error) }),
  );
});

async function answer(request: ThreadRequest): Promise<unknown> {
  switch (request.kind) {
    case "query": {
      const on = request.tx === undefined ? database : await transactionOf(request.tx);
      return on.query(request.sql, request.params, { rowMode: request.rowMode, parsers: PARSERS });
    }
    case "begin":
      return begin(request.tx);
    case "end":
      return end(request.tx, request.commit);
    case "listen": {
      if (!listening.has(request.channel)) {
        const channel = request.channel;
        listening.set(
          channel,
          await database.listen(channel, (payload) => port?.postMessage({ kind: "notification", channel, payload })),
        );
      }
      return null;
    }
    case "unlisten": {
      const unlisten = listening.get(request.channel);
      listening.delete(request.channel);
      await unlisten?.();
      return null;
    }
    case "close":
      try {
        // Waits for an open transaction to end: the beat goes on meanwhile, as the watchdog expects.
        if (!database.closed) await database.close();
      } finally {
        clearInterval(beating);
      }
      return null;
  }
}

function begin(id: number): Promise<void> {
  const begun = new Promise<void>((resolve, reject) => {
    let finish!: (commit: boolean) => void;
    const finished = new Promise<boolean>((settle) => {
      finish = settle;
    });
    const done = database.transaction(async (tx) => {
      open.set(id, { tx, finish, done });
      resolve();
      if (!(await finished)) throw ROLL_BACK;
    });
    // BEGIN itself failed: nothing is open.
    done.catch((error) => {
      if (!open.has(id)) reject(error);
    });
  });
  beginning.set(id, begun);
  return begun.finally(() => beginning.delete(id));
}

async function transactionOf(id: number): Promise<Transaction> {
  await beginning.get(id);
  const entry = open.get(id);
  if (!entry) throw new Error("The transaction has ended.");
  return entry.tx;
}

async function end(id: number, commit: boolean): Promise<null> {
  await beginning.get(id);
  const entry = open.get(id);
  if (!entry) throw new Error("The transaction has ended.");
  entry.finish(commit);
  try {
    await entry.done;
  } catch (error) {
    if (error !== ROLL_BACK) throw error;
  } finally {
    open.delete(id);
  }
  return null;
}
