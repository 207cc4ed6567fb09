import type { Db, Tx } from "./db.js";
import { inTransactionScope, together } from "./scope.js";

export type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };
/** A step's outcome, and its RELEASE still on its way (await it before relying on the step's writes). */
export interface Stepped {
  outcome: Outcome;
  released: Promise<unknown>;
}

/**
 * Runs `work` under a savepoint of the open transaction `tx`, with a transaction scope of its own: what it
 * defers to commit (outbox events, statements sent with COMMIT) runs before the savepoint is released, so a
 * failing step leaves nothing behind and the rest of the transaction goes on (a group commit's batch-mates, a
 * bulk import's other rows). SAVEPOINT and RELEASE are not awaited before the next statement: on PostgreSQL
 * they go out with the step's first and the next statements (a failed one aborts the transaction, and every
 * later statement and COMMIT with it). The step's own error is answered; a savepoint that could not be set
 * or rolled back to (the transaction itself broken) is thrown.
 */
export async function underSavepoint(
  tx: Tx,
  savepoint: string,
  work: (step: Tx) => Promise<unknown>,
): Promise<Stepped> {
  const begun = tx.query(`SAVEPOINT ${savepoint}`);
  begun.catch(() => undefined);
  const step: Tx = { inTransaction: true, query: (text, params) => tx.query(text, params) };
  try {
    const value = await inTransactionScope(
      () => work(step),
      async (withCommit) => {
        // Sent together, as a driver sends them with COMMIT; all answered before RELEASE.
        await together(
          ...withCommit.map((statement) => statement.tx.query(statement.text, statement.params)),
        );
      },
    );
    await begun;
    const released = tx.query(`RELEASE SAVEPOINT ${savepoint}`);
    released.catch(() => undefined);
    return { outcome: { ok: true, value }, released };
  } catch (error) {
    await begun;
    await tx.query(`ROLLBACK TO SAVEPOINT ${savepoint}`);
    return { outcome: { ok: false, error }, released: Promise.resolve() };
  }
}

/**
 * A Db whose `transaction(fn)` runs `fn` inside the open transaction `tx`, under a savepoint: a domain
 * function that opens its own transaction (createCustomer) becomes one step of a larger one, and its failure
 * rolls back its own writes only. The step has a transaction scope of its own: the work it defers to commit
 * (core/db/scope.ts: outbox events, jobs sent with COMMIT) runs before the savepoint is released, so a step
 * that fails leaves nothing behind, not even at the outer commit. `fn` gets its own Tx handle because what
 * is buffered per transaction (the outbox's pending events) must not mix with the outer transaction's.
 */
export function savepointDb(outer: Db, tx: Tx, name = "step"): Db {
  return {
    kind: outer.kind,
    query: (text, params) => tx.query(text, params),
    transaction: async (fn) => {
      const { outcome, released } = await underSavepoint(tx, name, fn);
      await released;
      if (!outcome.ok) throw outcome.error;
      return outcome.value as Awaited<ReturnType<typeof fn>>;
    },
    ping: () => outer.ping(),
    close: () => Promise.reject(new Error("a savepoint Db cannot be closed")),
  };
}
