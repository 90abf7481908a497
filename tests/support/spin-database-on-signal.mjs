// Preloaded into a server under test (`node --import`), which runs it in every
// thread. The main thread passes two signals on to the embedded database's
// thread:
// - SIGUSR2 leaves it spinning for good, as PostgreSQL inside it might after a
//   fault, while the main thread goes on;
// - SIGUSR1 holds it for 4 s, as one long statement does, and says so on stderr.
import fs from "node:fs";
import { isMainThread, workerData } from "node:worker_threads";

const channel = new BroadcastChannel("namecard-test-spin-database");
channel.unref();
if (isMainThread) {
  process.on("SIGUSR2", () => channel.postMessage("spin"));
  process.on("SIGUSR1", () => channel.postMessage("hold"));
} else if (workerData?.beat) {
  channel.onmessage = ({ data }) => {
    if (data === "hold") {
      fs.writeSync(2, "[test] holding the database thread for 4 s\n");
      const until = Date.now() + 4_000;
      while (Date.now() < until) {
        // Holds the thread, as a statement would.
      }
      return;
    }
    for (;;) {
      // Spins: nothing else on the database's thread runs again.
    }
  };
}
