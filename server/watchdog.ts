import { Worker } from "node:worker_threads";

/**
 * Ends the process when its main thread stops answering.
 *
 * Everything of this server, the embedded database included, runs on one
 * thread. A fault that leaves that thread spinning (the embedded database
 * after a PANIC) would leave a process that holds its port, answers nothing,
 * not even `/healthz`, and cannot see SIGTERM. A second thread watches a beat
 * the main thread writes every second; when no beat has come for `seconds`,
 * it prints one line and kills the process, so that the supervisor starts it
 * again. A stopped process loses nothing that was answered (commits are
 * synced to disk before the answer).
 */
export function startWatchdog(seconds: number): () => void {
  if (seconds <= 0) return () => {};
  const beat = new BigInt64Array(new SharedArrayBuffer(8));
  const mark = () => Atomics.store(beat, 0, process.hrtime.bigint());
  mark();
  const beating = setInterval(mark, 1_000);
  beating.unref();
  const watcher = new Worker(WATCHER, { eval: true, workerData: { beat, limitMs: seconds * 1_000 } });
  watcher.unref();
  return () => {
    clearInterval(beating);
    void watcher.terminate();
  };
}

// Runs on its own thread: what it needs is passed in, and it writes its line without the main thread's help.
const WATCHER = `
const fs = require("node:fs");
const { workerData } = require("node:worker_threads");
const { beat, limitMs } = workerData;
setInterval(() => {
  const silentMs = Number(process.hrtime.bigint() - Atomics.load(beat, 0)) / 1e6;
  if (silentMs < limitMs) return;
  fs.writeSync(2, "[server] stopped answering for " + Math.round(silentMs / 1000) + " s (its main thread is stuck): ending the process so that its supervisor starts it again\\n");
  process.kill(process.pid, "SIGKILL");
}, 500);
`;
