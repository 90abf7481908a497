import { isDatabaseUnavailable } from "../platform/db/availability";
import { databaseErrorLine, isFailedQuery } from "../platform/db/errors";
import { loggedText } from "../platform/log-redaction";
import { noteOutage } from "./outage";

type Level = "debug" | "info" | "success" | "warn" | "error";

/**
 * better-auth's log, with three changes: while the database is unavailable, a
 * failed session lookup is one line, not a stack trace per request (the page
 * itself answers 503; docs/decisions/011-outages-and-health.md); a failed
 * query is logged by its cause, without the values it carried; and the
 * addresses its messages quote (a refused callbackURL, an origin taken from a
 * Referer) are shown by the rule of docs/decisions/039-no-secrets-in-logs.md.
 */
export const authLogger = {
  log(level: Level, message: string, ...args: unknown[]) {
    if (args.some(isDatabaseUnavailable) || isDatabaseUnavailable({ message })) {
      noteOutage();
      console.warn(`[auth] the database is unavailable: ${loggedText(message.split("\n")[0] ?? "")}`);
      return;
    }
    const write = level === "error" ? console.error : level === "warn" ? console.warn : console.info;
    // A failed query's error carries the statement's values (addresses, tokens): only its cause is logged.
    write(
      `[Better Auth] ${loggedText(message)}`,
      ...args.map((arg) =>
        isFailedQuery(arg) ? databaseErrorLine(arg) : typeof arg === "string" ? loggedText(arg) : arg,
      ),
    );
  },
};
