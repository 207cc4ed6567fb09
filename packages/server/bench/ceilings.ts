import pg from "pg";
import type { Db } from "../src/core/db/db.js";
import { COMMIT_LOOP_ACCOUNTS, createCommitTables } from "./commit-tables.js";
import { pgbenchTps } from "./pgbench.js";

export interface Ceilings {
  /** pgbench tps for the commit-loop transaction at 16 clients; null on PGlite or without pgbench. */
  pgbench16: number | null;
  /**
   * The commit loop at 16, once before the write figures and once after: `pg` over 16 connections on
   * PostgreSQL, the service's `Db.transaction` on PGlite (one connection, in memory, not durable).
   */
  commitLoop16Runs: number[];
  commitLoopKind: "pg" | "pglite";
}

const UPDATE = "UPDATE bench_commit_accounts SET balance = balance + 1 WHERE id = $1";
const INSERT = "INSERT INTO bench_commit_history (account_id, amount, at) VALUES ($1, 1, now())";

/** Commits per second of `BEGIN; UPDATE one row; INSERT one row; COMMIT` over `clients` pg connections. */
export async function nodeCommitLoop(url: string, clients: number, seconds: number): Promise<number> {
  const connections = await Promise.all(
    Array.from({ length: clients }, async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return client;
    }),
  );
  let commits = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  try {
    await Promise.all(
      connections.map(async (client, i) => {
        const account = i % COMMIT_LOOP_ACCOUNTS;
        while (performance.now() < deadline) {
          await client.query("BEGIN");
          await client.query(UPDATE, [account]);
          await client.query(INSERT, [account]);
          await client.query("COMMIT");
          commits++;
        }
      }),
    );
    return commits / ((performance.now() - started) / 1000);
  } finally {
    await Promise.all(connections.map((c) => c.end()));
  }
}

/** The commit loop's transaction through `db.transaction`, `inFlight` at once (PGlite runs them one by one). */
async function dbCommitLoop(db: Db, inFlight: number, seconds: number): Promise<number> {
  let commits = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: inFlight }, async (_unused, i) => {
      const account = i % COMMIT_LOOP_ACCOUNTS;
      while (performance.now() < deadline) {
        await db.transaction(async (tx) => {
          await tx.query(UPDATE, [account]);
          await tx.query(INSERT, [account]);
        });
        commits++;
      }
    }),
  );
  return commits / ((performance.now() - started) / 1000);
}

function printCeiling(label: string, value: string): void {
  console.log(`ceiling: ${label.padEnd(50)} ${value}`);
}

/** One commit-loop measurement at 16 in flight: over `pg` when `url` is set, else through `db` (PGlite). */
export async function commitLoop16(db: Db, url: string | null, seconds: number): Promise<number> {
  const rate = url ? await nodeCommitLoop(url, 16, seconds) : await dbCommitLoop(db, 16, seconds);
  const label = url
    ? "Node pg commit loop, 16 connections"
    : "PGlite commit loop (Db.transaction), 16 in flight";
  printCeiling(label, `${rate.toFixed(0)}/s`);
  return rate;
}

/**
 * The ceilings the API rates are divided by, in the bench's own database, before the API figures; run.ts
 * measures the commit loop again after the write figures, since a shared machine's load drifts within
 * a run. `url` is the scratch PostgreSQL database, or null on PGlite.
 */
export async function measureCeilings(db: Db, url: string | null, seconds: number): Promise<Ceilings> {
  await createCommitTables(db);
  const pgbench16 = url ? await pgbenchTps(url, 16, seconds) : null;
  const pgbenchText = pgbench16 === null ? "not installed: null" : `${pgbench16.toFixed(0)} tps`;
  printCeiling("pgbench BEGIN; UPDATE; INSERT; END, 16 clients", url ? pgbenchText : "null on PGlite");
  const first = await commitLoop16(db, url, seconds);
  return { pgbench16, commitLoop16Runs: [first], commitLoopKind: url ? "pg" : "pglite" };
}
