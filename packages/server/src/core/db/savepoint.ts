import type { Db, Tx } from "./db.js";
import { inTransactionScope } from "./scope.js";

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
      await tx.query(`SAVEPOINT ${name}`);
      const step: Tx = { inTransaction: true, query: (text, params) => tx.query(text, params) };
      try {
        const value = await inTransactionScope(
          () => fn(step),
          async (withCommit) => {
            for (const statement of withCommit) await tx.query(statement.text, statement.params);
          },
        );
        await tx.query(`RELEASE SAVEPOINT ${name}`);
        return value;
      } catch (error) {
        await tx.query(`ROLLBACK TO SAVEPOINT ${name}`);
        throw error;
      }
    },
    ping: () => outer.ping(),
    close: () => Promise.reject(new Error("a savepoint Db cannot be closed")),
  };
}
