import type { Db, Tx } from "./db.js";

/**
 * A Db whose `transaction(fn)` runs `fn` inside the open transaction `tx`, under a savepoint: a domain
 * function that opens its own transaction (createCustomer) becomes one step of a larger one, and its failure
 * rolls back its own writes only. Work it deferred to commit (core/db/scope.ts) is not undone, so use it
 * for functions that fail before they defer any (they check, then write).
 */
export function savepointDb(outer: Db, tx: Tx, name = "step"): Db {
  return {
    kind: outer.kind,
    query: (text, params) => tx.query(text, params),
    transaction: async (fn) => {
      await tx.query(`SAVEPOINT ${name}`);
      try {
        const value = await fn(tx);
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
