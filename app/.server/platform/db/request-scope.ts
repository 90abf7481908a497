import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What the database layer knows of the request it is working for: when it
 * began, and whether it met an unavailable database somewhere a library turned
 * the error into one of its own (better-auth answers a session lookup that
 * could not reach the database with its own 500; only its log sees the cause).
 * Work outside a request (the workers, scripts) has no scope.
 */
export type RequestScope = { startedAt: number | null; outageMet: boolean };

const scope = new AsyncLocalStorage<RequestScope>();

/**
 * The most time a read's statements may take, all together, on PostgreSQL: a
 * page that reads several times from a database that answers each read just
 * inside its own limit still ends, as a 503, within this
 * (docs/decisions/040-faults-answered-honestly.md). Writes (an upload of
 * thousands of rows, a bulk change) have only each statement's limit.
 */
export const REQUEST_BUDGET_MS = 10_000;

/**
 * Runs `work` (a request's whole handling) inside a scope of its own; a budget
 * counts from `startedAt`, when given, until `endBudget`. Work the request sets
 * going (a worker woken, a timer) runs in its scope too: the budget ends with
 * the response, so such work is not held to it.
 */
export function inRequestScope<T>(work: () => T, startedAt: number | null = performance.now()): T {
  return scope.run({ startedAt, outageMet: false }, work);
}

/** Ends the budget of the scope `work` runs in (called once the response is sent). */
export function endBudget() {
  const request = scope.getStore();
  if (request) request.startedAt = null;
}

export function currentRequestScope(): RequestScope | undefined {
  return scope.getStore();
}

/** What is left of the request's budget, in milliseconds; null outside a request, or for one without a budget. */
export function budgetLeftMs(): number | null {
  const startedAt = scope.getStore()?.startedAt;
  return typeof startedAt === "number" ? REQUEST_BUDGET_MS - (performance.now() - startedAt) : null;
}

/** Runs `work` outside any request: a timer or worker it starts is the process's, held to no request's budget. */
export function outsideRequest<T>(work: () => T): T {
  return scope.exit(work);
}
