import { AsyncLocalStorage } from "node:async_hooks";
import type { PGlite } from "@electric-sql/pglite";

/**
 * Watches the embedded database for statements that meet one another: a
 * transaction begun while anything else is in flight, or a statement sent
 * while a transaction is open. On PostgreSQL each of those takes a second
 * connection from the pool, and what then happens (locks, isolation, the
 * order of commits) is the engine's own; on PGlite they simply wait in line.
 *
 * Each statement carries where it came from (`sentBy`): a test file's tests
 * and the work they set going (a batch written later, an import running on).
 * Only statements of one origin count as meeting, so work a file left running
 * is never held against the file after it.
 */
export type SideBySide = {
  /** Origins of which a transaction met another statement of the same origin. */
  transactionMet: Set<string>;
  /** Origins of which two statements outside any transaction were in flight at once. */
  statementsMet: Set<string>;
};

const origins = new AsyncLocalStorage<string>();

/** Runs `work` with every statement it sends, now or later, marked as coming from `origin`. */
export function sentBy<T>(origin: string, work: () => T): T {
  return origins.run(origin, work);
}

const WATCH = Symbol.for("namecard.tests.side-by-side");
type Watched = PGlite & { [WATCH]?: SideBySide };
type InFlight = { origin: string | undefined; transaction: boolean };

export function watchSideBySide(pglite: PGlite): SideBySide {
  const watched = pglite as Watched;
  if (watched[WATCH]) return watched[WATCH];
  const seen: SideBySide = { transactionMet: new Set(), statementsMet: new Set() };
  const inFlight = new Set<InFlight>();
  const others = (origin: string | undefined) => [...inFlight].filter((other) => other.origin === origin);

  function track<R>(transaction: boolean, run: () => Promise<R>): Promise<R> {
    const origin = origins.getStore();
    if (origin !== undefined) {
      const met = others(origin);
      if (met.length > 0 && (transaction || met.some((other) => other.transaction))) seen.transactionMet.add(origin);
      else if (met.length > 0) seen.statementsMet.add(origin);
    }
    const entry = { origin, transaction };
    inFlight.add(entry);
    return run().finally(() => inFlight.delete(entry));
  }

  const transaction = pglite.transaction.bind(pglite);
  const query = pglite.query.bind(pglite);
  const exec = pglite.exec.bind(pglite);
  watched.transaction = ((callback: Parameters<PGlite["transaction"]>[0]) =>
    track(true, () => transaction(callback))) as PGlite["transaction"];
  watched.query = ((...args: Parameters<PGlite["query"]>) => track(false, () => query(...args))) as PGlite["query"];
  watched.exec = ((...args: Parameters<PGlite["exec"]>) => track(false, () => exec(...args))) as PGlite["exec"];
  watched[WATCH] = seen;
  return seen;
}
