import type { PGlite } from "@electric-sql/pglite";

/**
 * Watches the embedded database for statements that meet one another: a
 * transaction begun while anything else is in flight, or a statement sent
 * while a transaction is open. On PostgreSQL each of those takes a second
 * connection from the pool, and what then happens (locks, isolation, the
 * order of commits) is the engine's own; on PGlite they simply wait in line.
 */
export type SideBySide = {
  /** A transaction began while another statement was in flight, or a statement was sent while one was open. */
  transactionMet: boolean;
  /** Two statements outside any transaction were in flight at once. */
  statementsMet: boolean;
};

const WATCH = Symbol.for("namecard.tests.side-by-side");
type Watched = PGlite & { [WATCH]?: SideBySide };

export function watchSideBySide(pglite: PGlite): SideBySide {
  const watched = pglite as Watched;
  if (watched[WATCH]) return watched[WATCH];
  const seen: SideBySide = { transactionMet: false, statementsMet: false };
  let inFlight = 0;
  let openTransactions = 0;
  const transaction = pglite.transaction.bind(pglite);
  const query = pglite.query.bind(pglite);
  const exec = pglite.exec.bind(pglite);
  watched.transaction = (async (callback: Parameters<PGlite["transaction"]>[0]) => {
    if (inFlight > 0) seen.transactionMet = true;
    inFlight++;
    openTransactions++;
    try {
      return await transaction(callback);
    } finally {
      inFlight--;
      openTransactions--;
    }
  }) as PGlite["transaction"];
  const statement =
    <A extends unknown[], R>(run: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (openTransactions > 0) seen.transactionMet = true;
      else if (inFlight > 0) seen.statementsMet = true;
      inFlight++;
      try {
        return await run(...args);
      } finally {
        inFlight--;
      }
    };
  watched.query = statement(query) as PGlite["query"];
  watched.exec = statement(exec) as PGlite["exec"];
  watched[WATCH] = seen;
  return seen;
}
