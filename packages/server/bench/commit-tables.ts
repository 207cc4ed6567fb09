import type { Executor } from "../src/core/db/db.js";

/** Rows the ceiling transactions update: one per client at 16, so no two clients wait on one row. */
export const COMMIT_LOOP_ACCOUNTS = 16;

/**
 * Ordinary tables (not TEMP, not UNLOGGED) in the bench's scratch database, so every commit of the
 * ceiling loops is flushed to the WAL like the service's own; the old "raw INSERT" ceiling used a TEMP
 * table, which never is (issue 20).
 */
export async function createCommitTables(db: Executor): Promise<void> {
  await db.query(
    "CREATE TABLE IF NOT EXISTS bench_commit_accounts (id int PRIMARY KEY, balance int8 NOT NULL)",
  );
  await db.query(
    `CREATE TABLE IF NOT EXISTS bench_commit_history
       (id bigserial PRIMARY KEY, account_id int NOT NULL, amount int8 NOT NULL, at timestamptz NOT NULL)`,
  );
  await db.query(
    `INSERT INTO bench_commit_accounts (id, balance) SELECT g, 0 FROM generate_series(0, ${COMMIT_LOOP_ACCOUNTS - 1}) g
     ON CONFLICT (id) DO NOTHING`,
  );
}
