// Preloaded into a server under test (`node --import`), which runs it in every
// thread: SIGUSR2 to the process leaves the embedded database's thread spinning
// for good, as PostgreSQL inside it might after a fault, while the main thread
// goes on.
import { isMainThread, workerData } from "node:worker_threads";

const channel = new BroadcastChannel("namecard-test-spin-database");
channel.unref();
if (isMainThread) {
  process.on("SIGUSR2", () => channel.postMessage("spin"));
} else if (workerData?.beat) {
  channel.onmessage = () => {
    for (;;) {
      // Spins: nothing else on the database's thread runs again.
    }
  };
}
