import { isDatabaseUnavailable } from "./db/availability";
import { databaseErrorLine, isFailedQuery } from "./db/errors";

type Level = "debug" | "info" | "success" | "warn" | "error";

/**
 * better-auth's log, with two changes: while the database is unavailable, a
 * failed session lookup is one line, not a stack trace per request (the page
 * itself answers 503; docs/decisions/011-outages-and-health.md); and a failed
 * query is logged by its cause, without the values it carried.
 */
export const authLogger = {
  log(level: Level, message: string, ...args: unknown[]) {
    if (args.some(isDatabaseUnavailable) || isDatabaseUnavailable({ message })) {
      console.warn(`[auth] the database is unavailable: ${message.split("\n")[0]}`);
      return;
    }
    const write = level === "error" ? console.error : level === "warn" ? console.warn : console.info;
    // A failed query's error carries the statement's values (addresses, tokens): only its cause is logged.
    write(`[Better Auth] ${message}`, ...args.map((arg) => (isFailedQuery(arg) ? databaseErrorLine(arg) : arg)));
  },
};
