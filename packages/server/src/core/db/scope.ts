import { AsyncLocalStorage } from "node:async_hooks";
import type { Tx } from "./db.js";

// Inside `db.transaction(fn)` every statement must go through `tx`. A `db.query` there reads outside the
// transaction on PostgreSQL (breaking atomicity) and waits forever on PGlite, whose one session is held by
// the transaction itself. Marking the callback's async context turns both into an immediate error.
type Deferred = Map<unknown, () => Promise<void>>;
/** A statement whose answer nobody reads, sent together with COMMIT (sendWithCommit). */
export interface StatementWithCommit {
  tx: Tx;
  text: string;
  params: readonly unknown[];
}
interface TransactionContext {
  atCommit: Deferred;
  lastAtCommit: Deferred;
  withCommit: StatementWithCommit[];
}
const insideTransaction = new AsyncLocalStorage<TransactionContext>();

async function drain(deferred: Deferred): Promise<void> {
  for (const [key, work] of deferred) {
    deferred.delete(key);
    await work();
  }
}

/**
 * Runs a transaction callback with its async context marked, then the work deferred to its commit
 * (deferUntilCommit), in the order it was first deferred (work deferred `last` after the rest), then
 * `commit` with the statements to send together with COMMIT (sendWithCommit).
 */
export function inTransactionScope<T>(
  work: () => Promise<T>,
  commit: (withCommit: StatementWithCommit[]) => Promise<void>,
): Promise<T> {
  const context: TransactionContext = { atCommit: new Map(), lastAtCommit: new Map(), withCommit: [] };
  return insideTransaction.run(context, async () => {
    const value = await work();
    while (context.atCommit.size > 0 || context.lastAtCommit.size > 0) {
      await drain(context.atCommit);
      await drain(context.lastAtCommit);
    }
    await commit(context.withCommit.splice(0));
    return value;
  });
}

/**
 * Sends a write whose answer nobody reads together with the transaction's COMMIT, in the same round trip
 * (issue 20): if it fails, the transaction rolls back and db.transaction throws its error. Runs at once
 * outside a transaction scope.
 */
export async function sendWithCommit(tx: Tx, text: string, params: readonly unknown[]): Promise<void> {
  const context = insideTransaction.getStore();
  if (context) context.withCommit.push({ tx, text, params });
  else await tx.query(text, params);
}

/**
 * Defers work to the end of the current transaction, right before its commit, once per key: writes that
 * many steps of one transaction add to (the outbox's events) become one statement, and a contended row
 * (`last`: after all other deferred work) is locked for one statement only. The work runs inside the
 * transaction; a throw there rolls it back. False outside a transaction.
 */
export function deferUntilCommit(
  key: unknown,
  work: () => Promise<void>,
  options: { last?: boolean } = {},
): boolean {
  const context = insideTransaction.getStore();
  if (!context) return false;
  const deferred = options.last ? context.lastAtCommit : context.atCommit;
  if (!deferred.has(key)) deferred.set(key, work);
  return true;
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

/**
 * Awaits a transaction's steps issued together (their statements go out in one round trip) and answers
 * their values in order. A failure is thrown only once every step has settled, so no step of the
 * transaction still runs after it ends, and it is the first failure in argument order: errors answer in
 * the order the steps were written, whatever their timing.
 */
export async function together<T extends readonly unknown[]>(
  ...steps: { [K in keyof T]: Promise<T[K]> }
): Promise<T> {
  const outcomes = await Promise.allSettled(steps);
  const failure = outcomes.find((outcome) => outcome.status === "rejected");
  if (failure) throw failure.reason;
  return outcomes.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
