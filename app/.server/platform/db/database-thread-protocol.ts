/** What the main thread and the database thread say to each other (database-thread.ts). */

/** How often the thread stores its beat while its event loop turns. */
export const BEAT_EVERY_MS = 1_000;

export type ThreadStart = {
  dataDir: string;
  /** Where the thread stores the time every second while its event loop turns (server/watchdog.ts reads it). */
  beat: BigInt64Array;
};

export type ThreadRequest = { id: number } & (
  | { kind: "query"; sql: string; params: unknown[] | undefined; rowMode: "array" | "object"; tx?: number }
  | { kind: "begin"; tx: number }
  | { kind: "end"; tx: number; commit: boolean }
  | { kind: "listen"; channel: string }
  | { kind: "unlisten"; channel: string }
  | { kind: "close" }
);

export type SerializedError = {
  name: string;
  message: string;
  fields: Record<string, unknown>;
  cause?: SerializedError;
};

export type Reply =
  | { id: number; value: unknown; error?: undefined }
  | { id: number; error: SerializedError }
  | { kind: "notification"; channel: string; payload: string }
  | { kind: "fault"; reason: string }
  | { kind: "ready" }
  | { kind: "failed"; error: SerializedError };

/**
 * An error as plain data: its message, and the fields callers read (PostgreSQL's `code`,
 * `constraint`, `detail`; Node's `code` such as ENOSPC), with its causes.
 */
export function serializeError(error: unknown, depth = 0): SerializedError {
  if (!(error instanceof Error)) return { name: "Error", message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ["string", "number", "boolean"].includes(typeof value)) fields[key] = value;
  }
  const cause = depth < 4 && error.cause !== undefined ? serializeError(error.cause, depth + 1) : undefined;
  return { name: error.name, message: error.message, fields, cause };
}

export function deserializeError(data: SerializedError): Error {
  const error = new Error(data.message, data.cause ? { cause: deserializeError(data.cause) } : undefined);
  error.name = data.name;
  return Object.assign(error, data.fields);
}
