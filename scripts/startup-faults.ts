// Imported first by every script that opens the database: a configuration
// fault (a bad variable, a data directory in use, a database that cannot be
// reached) prints its one line and exits 1, with no stack trace. Anything else
// is a defect and keeps its stack.
import { isStartupFault } from "~/.server/platform/startup-error";

process.on("uncaughtException", (error) => {
  console.error(isStartupFault(error) ? error.message : error);
  process.exit(1);
});
