import { AsyncLocalStorage } from "node:async_hooks";
import type { Tx } from "./db.js";

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

/** A statement run first in every top-level transaction opened while it is in context. */
export type TransactionPreamble = (tx: Tx) => Promise<void>;

// An idempotent request puts its claim here (core/idempotency): its transactions then commit only while
// the request still holds the claim, atomically with the claim's "effect committed" mark. Outside a request
// (jobs, startup) nothing is in context and transactions run as they are.
const preambles = new AsyncLocalStorage<TransactionPreamble>();

/** Runs work with a preamble for the top-level transactions it opens. */
export function withTransactionPreamble<T>(preamble: TransactionPreamble, work: () => T): T {
  return preambles.run(preamble, work);
}

/** The preamble in context, if any. */
export function transactionPreamble(): TransactionPreamble | undefined {
  return preambles.getStore();
}
