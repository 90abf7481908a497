/** A unique index refused the write (PostgreSQL code 23505), however deep the driver wrapped it. */
export function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    if ((current as { code?: string }).code === "23505") return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * PostgreSQL ended the transaction to break a deadlock (40P01) or a
 * serialization conflict (40001): nothing of it was written, and the same
 * work may simply run again.
 */
export function isRetryableConflict(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (code === "40P01" || code === "40001") return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The disk under the database is full: ENOSPC from Node, or PostgreSQL's disk_full (53100). */
export function isDiskFull(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (code === "ENOSPC" || code === "EDQUOT" || code === "53100") return true;
    if (typeof message === "string" && /No space left on device/i.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** A query's error from Drizzle, whose message holds the statement and its values. */
export const isFailedQuery = (value: unknown): value is Error =>
  value instanceof Error && value.message.startsWith("Failed query");

/**
 * One line for the log about a failed query: the database's own message, never
 * the statement's values. A failed query's error carries its SQL and every
 * parameter (people's names, addresses, tokens), which a log must not keep.
 */
export function databaseErrorLine(error: unknown): string {
  let current: unknown = error;
  let line = "";
  for (let depth = 0; current && depth < 5; depth++) {
    const { message, code } = current as { message?: unknown; code?: unknown };
    if (typeof message === "string" && !message.startsWith("Failed query")) {
      line = `${message.split("\n")[0]}${typeof code === "string" ? ` (${code})` : ""}`;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return line || "a query failed";
}
