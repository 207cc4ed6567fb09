import pg from "pg";
import { type Db, INT8_OID, parseInt8, type Row, type TransactionOptions, type Tx } from "./db.js";
import { beginStatement, withRetry } from "./retry.js";
import { assertOutsideTransaction, inTransactionScope, transactionPreamble } from "./scope.js";

const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID
      ? parseInt8
      : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

/** PostgreSQL through a `pg` pool; int8 is parsed to exact numbers (pg returns strings by default). */
export function openPostgres(connectionString: string, poolSize = 10): Db {
  const pool = new pg.Pool({ connectionString, max: poolSize, types });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on("error", () => undefined);
  let closed = false;

  return {
    kind: "postgres",
    query: async <T extends Row>(text: string, params?: readonly unknown[]) => {
      assertOutsideTransaction("db.query");
      return (await pool.query<T>(text, params ? [...params] : undefined)).rows;
    },
    transaction: <T>(fn: (tx: Tx) => Promise<T>, options?: TransactionOptions) => {
      assertOutsideTransaction("db.transaction");
      const preamble = transactionPreamble();
      return withRetry(async () => {
        const client = await pool.connect();
        let broken: Error | undefined;
        try {
          await client.query(beginStatement(options));
          const tx: Tx = {
            inTransaction: true,
            query: async <R extends Row>(text: string, params?: readonly unknown[]) =>
              (await client.query<R>(text, params ? [...params] : undefined)).rows,
          };
          try {
            const value = await inTransactionScope(async () => {
              if (preamble) await preamble(tx);
              return fn(tx);
            });
            await client.query("COMMIT");
            return value;
          } catch (error) {
            await client.query("ROLLBACK").catch((rollbackError: Error) => {
              broken = rollbackError;
            });
            throw error;
          }
        } finally {
          client.release(broken);
        }
      }, options);
    },
    ping: async () => {
      await pool.query("SELECT 1");
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
