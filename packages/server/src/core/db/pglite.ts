import { PGlite } from "@electric-sql/pglite";
import { type Db, INT8_OID, parseInt8, type Row, type TransactionOptions, type Tx } from "./db.js";
import { DEFAULT_GROUP_COMMIT, groupCommitting } from "./group-commit.js";
import { beginStatement, withRetry } from "./retry.js";
import { assertOutsideTransaction, inTransactionScope, transactionPreamble } from "./scope.js";

export interface PgliteOptions {
  /** A directory for the data files; omitted means in memory. */
  dataDir?: string;
  /** A data directory tarball (from dumpDataDir) to start from, e.g. a migrated template. */
  loadDataDir?: Blob;
  /** The most grouped transactions one commit carries (core/db/group-commit.ts); one session, so one lane. */
  groupCommitMax?: number;
}

/**
 * The embedded database. PGlite is one session, so every query and transaction takes a turn on one
 * queue: a statement outside a transaction must never land inside another caller's open transaction.
 */
export async function openPglite(options: PgliteOptions = {}): Promise<Db & { dump(): Promise<Blob> }> {
  const pg = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    parsers: { [INT8_OID]: parseInt8 },
  });
  let queue: Promise<unknown> = Promise.resolve();
  // Turns taken and not yet over: one holds the session, the others wait (poolStats, for /metrics).
  let turns = 0;
  const turnOver = () => {
    turns -= 1;
  };
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    turns += 1;
    const run = queue.then(work, work);
    queue = run.then(turnOver, turnOver);
    return run;
  };
  const rawQuery = async <T extends Row>(text: string, params?: readonly unknown[]): Promise<T[]> => {
    const result = await pg.query<T>(text, params ? [...params] : undefined);
    return result.rows;
  };
  let closed = false;

  const db: Db & { dump(): Promise<Blob> } = {
    kind: "pglite",
    query: (text, params) => {
      assertOutsideTransaction("db.query");
      return exclusive(() => rawQuery(text, params));
    },
    transaction: <T>(fn: (tx: Tx) => Promise<T>, txOptions?: TransactionOptions) => {
      assertOutsideTransaction("db.transaction");
      const preamble = transactionPreamble();
      return withRetry(
        () =>
          exclusive(async () => {
            let ended = false;
            const tx: Tx = {
              inTransaction: true,
              query: (text, params) => {
                if (ended) throw new Error("a statement was issued after its transaction ended");
                return rawQuery(text, params);
              },
            };
            await pg.exec(beginStatement(txOptions));
            try {
              return await inTransactionScope(
                async () => {
                  if (preamble) await preamble(tx);
                  return fn(tx);
                },
                async (withCommit) => {
                  for (const statement of withCommit)
                    await statement.tx.query(statement.text, statement.params);
                  await pg.exec("COMMIT");
                },
              );
            } catch (error) {
              await pg.exec("ROLLBACK");
              throw error;
            } finally {
              ended = true;
            }
          }),
        txOptions,
      );
    },
    ping: async () => {
      await exclusive(() => rawQuery("SELECT 1"));
    },
    poolStats: () => ({
      size: 1,
      inUse: turns > 0 ? 1 : 0,
      idle: turns > 0 ? 0 : 1,
      waiting: Math.max(0, turns - 1),
    }),
    close: async () => {
      if (closed) return;
      closed = true;
      await exclusive(() => pg.close());
    },
    dump: () => exclusive(() => pg.dumpDataDir("none")),
  };
  return groupCommitting(db, {
    maxBatch: options.groupCommitMax ?? DEFAULT_GROUP_COMMIT.maxBatch,
    lanes: 1,
  });
}
