// Namecard's entry point: one server process (server/serve.js), or with
// PROCESSES above 1 a supervisor of that many on one port (server/processes.js).
import cluster from "node:cluster";
import { processCount, superviseProcesses } from "./server/processes.js";

let count;
try {
  count = processCount();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
if (cluster.isPrimary && count > 1) superviseProcesses(count);
else await import("./server/serve.js");
