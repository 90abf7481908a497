import { watchBeat } from "~/.server/platform/monitor";

/** A thread other than the main one that beats every second (the embedded database's). */
export type BeatingThread = { what: string; beat: BigInt64Array };

/**
 * Ends the process when its main thread, or another thread it depends on,
 * stops answering.
 *
 * A fault that leaves the main thread spinning would leave a process that
 * holds its port, answers nothing, not even `/healthz`, and cannot see
 * SIGTERM; one that leaves the embedded database's thread spinning (the
 * database after a PANIC) would leave every page that reads it waiting
 * forever. A second thread watches a beat each of them writes every second;
 * when no beat has come for `seconds`, it prints one line naming the thread
 * and kills the process, so that the supervisor starts it again. A stopped
 * process loses nothing that was answered (commits are synced to disk before
 * the response).
 */
export function startWatchdog(seconds: number, others: BeatingThread[] = []): () => void {
  if (seconds <= 0) return () => {};
  const beat = new BigInt64Array(new SharedArrayBuffer(8));
  const mark = () => Atomics.store(beat, 0, process.hrtime.bigint());
  mark();
  const beating = setInterval(mark, 1_000);
  beating.unref();
  // The second thread (app/.server/platform/monitor.ts) reads the beats and writes its line without this thread's help.
  const unwatch = [
    watchBeat("main thread", beat, seconds * 1_000),
    ...others.map((other) => watchBeat(other.what, other.beat, seconds * 1_000)),
  ];
  return () => {
    clearInterval(beating);
    for (const stop of unwatch) stop();
  };
}
