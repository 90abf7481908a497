import { Worker } from "node:worker_threads";

/**
 * The server's second thread, which watches the first.
 *
 * - It ends the process when the main thread or the database's thread stops beating
 *   (server/watchdog.ts).
 * - It writes the health check's probe of DATA_DIR (health.ts). On the main thread each step
 *   of that probe (open, write, sync, close, remove, free space) waits for a whole turn of
 *   the event loop, and under load a turn is every busy connection's work, so the probe
 *   took six busy turns (docs/decisions/035-both-cores-and-many-instances.md; bench/README.md
 *   has the times). Here the steps run on an idle loop of their own, and the main thread
 *   waits for one reply.
 *
 * One thread does both, started when first needed: each thread costs memory (decision 035
 * says how much). It keeps the process alive only while a probe waits for its reply.
 */
let thread: Worker | undefined;
let nextProbe = 0;
const answers = new Map<number, (error: string | null) => void>();
/** The probe under way, by directory: a disk that hangs holds one probe, not one per request. */
const probing = new Map<string, Promise<void>>();
/** The beats being watched, by the thread that writes each: given again to a thread started after one ended. */
const watching = new Map<string, { beat: BigInt64Array; limitMs: number }>();

function monitor(): Worker {
  if (thread) return thread;
  const started = new Worker(MONITOR, { eval: true });
  started.on("message", ({ id, error }: { id: number; error: string | null }) => {
    answers.get(id)?.(error);
    answers.delete(id);
    if (answers.size === 0) started.unref();
  });
  // Not expected (the thread catches what its work throws). The probes under way fail, and the
  // next need starts another thread, which watches the beat again.
  started.on("error", (error) => console.error(`[server] the monitoring thread failed: ${error.message}`));
  started.on("exit", () => {
    if (thread === started) thread = undefined;
    for (const answer of answers.values()) answer("the monitoring thread ended");
    answers.clear();
    // The watchdog must not stay off: a second later another thread takes over the beat.
    if (watching.size > 0) setTimeout(() => watching.size > 0 && monitor(), 1_000).unref();
  });
  // After the listeners (adding a message listener would hold the process open again); held
  // only while a probe waits for its answer.
  started.unref();
  thread = started;
  for (const [what, watch] of watching) started.postMessage({ kind: "watch", what, ...watch });
  return started;
}

/**
 * Watches `beat` (a time the thread `what` stores every second, such as "main thread") and
 * ends the process once it is `limitMs` old.
 */
export function watchBeat(what: string, beat: BigInt64Array, limitMs: number): () => void {
  watching.set(what, { beat, limitMs });
  // A thread started now is given the beat as it starts.
  if (thread) thread.postMessage({ kind: "watch", what, beat, limitMs });
  else monitor();
  return () => {
    watching.delete(what);
    thread?.postMessage({ kind: "unwatch", what });
  };
}

/**
 * Writes a file in `directory`, syncs it to the disk and removes it, then checks that
 * `minFreeBytes` are left; rejects with the reason when any of it fails. A probe asked for
 * while one of the same directory is under way shares it.
 */
export function probeDirectory(directory: string, minFreeBytes: number): Promise<void> {
  let probe = probing.get(directory);
  if (!probe) {
    const id = nextProbe++;
    probe = new Promise<void>((resolve, reject) => {
      answers.set(id, (error) => (error === null ? resolve() : reject(new Error(error))));
      const worker = monitor();
      worker.ref();
      worker.postMessage({ kind: "probe", id, directory, minFreeBytes });
    }).finally(() => probing.delete(directory));
    probing.set(directory, probe);
  }
  return probe;
}

// Runs on its own thread: what it needs comes in messages, and it writes its line without the main thread's help.
const MONITOR = `
const fs = require("node:fs");
const path = require("node:path");
const { parentPort } = require("node:worker_threads");
const watching = new Map();

function watch(what, beat, limitMs) {
  clearInterval(watching.get(what));
  watching.set(what, setInterval(() => {
    const silentMs = Number(process.hrtime.bigint() - Atomics.load(beat, 0)) / 1e6;
    if (silentMs < limitMs) return;
    fs.writeSync(2, "[server] stopped answering for " + Math.round(silentMs / 1000) + " s (its " + what + " is stuck): ending the process so that its supervisor starts it again\\n");
    process.kill(process.pid, "SIGKILL");
  }, 500));
}

async function probe(directory, minFreeBytes) {
  const file = path.join(directory, ".health-" + process.pid);
  try {
    const handle = await fs.promises.open(file, "w");
    try {
      await handle.writeFile(new Date().toISOString());
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rm(file, { force: true });
    const space = await fs.promises.statfs(directory);
    const free = space.bavail * space.bsize;
    if (free < minFreeBytes) throw new Error("the disk is full (" + Math.round(free / 1024) + " KiB left)");
  } catch (error) {
    await fs.promises.rm(file, { force: true }).catch(() => {});
    throw error;
  }
}

parentPort.on("message", (message) => {
  if (message.kind === "watch") watch(message.what, message.beat, message.limitMs);
  else if (message.kind === "unwatch") {
    clearInterval(watching.get(message.what));
    watching.delete(message.what);
  }
  else if (message.kind === "probe") {
    probe(message.directory, message.minFreeBytes).then(
      () => parentPort.postMessage({ id: message.id, error: null }),
      (error) => parentPort.postMessage({ id: message.id, error: String(error && error.message ? error.message : error) }),
    );
  }
});
`;
