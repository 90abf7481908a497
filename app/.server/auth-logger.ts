import { isDatabaseUnavailable } from "./db/availability";

type Level = "debug" | "info" | "success" | "warn" | "error";

/**
 * better-auth's log, with one change: while the database is unavailable, a
 * failed session lookup is one line, not a stack trace per request (the page
 * itself answers 503; docs/decisions/011-outages-and-health.md).
 */
export const authLogger = {
  log(level: Level, message: string, ...args: unknown[]) {
    if (args.some(isDatabaseUnavailable) || isDatabaseUnavailable({ message })) {
      console.warn(`[auth] the database is unavailable: ${message.split("\n")[0]}`);
      return;
    }
    const write = level === "error" ? console.error : level === "warn" ? console.warn : console.info;
    write(`[Better Auth] ${message}`, ...args);
  },
};
