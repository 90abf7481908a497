/**
 * Whether an error means the database cannot be reached or cannot take writes
 * right now (a stopped or restarting server, a dropped connection, a full disk,
 * a read-only standby): a passing condition to answer with 503, never with
 * "not found" and never with a defect's 500. Drivers wrap errors, so causes are
 * followed a few levels deep.
 */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
]);

/** PostgreSQL SQLSTATE classes and codes that describe the server, not the query. */
function isUnavailableSqlState(code: string) {
  return (
    code.startsWith("08") || // connection exception
    code.startsWith("57P") || // operator intervention: shutdown, crash, cannot connect now
    code === "57014" || // a statement cancelled, by its time limit among others: the server is too slow to answer
    code.startsWith("53") || // insufficient resources: disk full, out of memory, too many connections
    code === "25006" || // read-only transaction (a standby, or a database set read-only)
    code === "3D000" // the database is gone (renamed or dropped while running)
  );
}

const UNAVAILABLE_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|PGlite is closed|The database is closed|The database thread ended|the database did not answer|Query read timeout/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === "string" && (NETWORK_CODES.has(code) || isUnavailableSqlState(code))) return true;
    if (typeof message === "string" && UNAVAILABLE_MESSAGES.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
