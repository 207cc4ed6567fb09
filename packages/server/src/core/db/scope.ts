import { AsyncLocalStorage } from "node:async_hooks";

// Inside `db.transaction(fn)` every statement must go through `tx`. A `db.query` there reads outside the
// transaction on PostgreSQL (breaking atomicity) and waits forever on PGlite, whose one session is held by
// the transaction itself. Marking the callback's async context turns both into an immediate error.
const insideTransaction = new AsyncLocalStorage<true>();

/** Runs a transaction callback with its async context marked. */
export function inTransactionScope<T>(work: () => Promise<T>): Promise<T> {
  return insideTransaction.run(true, work);
}

/** Refuses a statement on the database handle from inside a transaction callback. */
export function assertOutsideTransaction(what: string): void {
  if (insideTransaction.getStore()) {
    throw new Error(`${what} called inside db.transaction(): use the transaction's tx instead`);
  }
}
