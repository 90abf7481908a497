import { watchBeat } from "~/.server/monitor";

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
  // The second thread (app/.server/monitor.ts) reads the beat and writes its line without this thread's help.
  const unwatch = watchBeat(beat, seconds * 1_000);
  return () => {
    clearInterval(beating);
    unwatch();
  };
}
