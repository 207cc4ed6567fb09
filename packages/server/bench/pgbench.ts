import { execFile } from "node:child_process";
import { readdir, rm, writeFile } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { COMMIT_LOOP_ACCOUNTS } from "./commit-tables.js";

const run = promisify(execFile);

// The transaction of the Node commit loop (ceilings.ts), one row per client, as pgbench's own TPC-B
// style script spreads clients over rows: the ceiling is commits, not a queue on one row lock.
const SCRIPT = `BEGIN;
UPDATE bench_commit_accounts SET balance = balance + 1 WHERE id = :client_id % ${COMMIT_LOOP_ACCOUNTS};
INSERT INTO bench_commit_history (account_id, amount, at) VALUES (:client_id % ${COMMIT_LOOP_ACCOUNTS}, 1, now());
END;
`;

/**
 * The pgbench binary: `PGBENCH`, else the newest `/usr/lib/postgresql/<version>/bin/pgbench` (Debian's
 * layout; `/usr/bin/pgbench` there is a wrapper that picks a version by local cluster), else `pgbench`
 * on PATH. Null when none runs.
 */
async function findPgbench(): Promise<string | null> {
  const versions = await readdir("/usr/lib/postgresql").catch(() => [] as string[]);
  const candidates = [
    ...(process.env.PGBENCH ? [process.env.PGBENCH] : []),
    ...versions.sort((a, b) => Number(b) - Number(a)).map((v) => `/usr/lib/postgresql/${v}/bin/pgbench`),
    "pgbench",
  ];
  for (const candidate of candidates) {
    try {
      await run(candidate, ["--version"]);
      return candidate;
    } catch {
      // Not installed there; try the next.
    }
  }
  return null;
}

/** pgbench's tps for the commit-loop transaction, `clients` clients for `seconds`; null without pgbench. */
export async function pgbenchTps(url: string, clients: number, seconds: number): Promise<number | null> {
  const binary = await findPgbench();
  if (!binary) return null;
  const script = join(tmpdir(), `paysvc-bench-commit-${process.pid}.sql`);
  await writeFile(script, SCRIPT);
  try {
    const threads = String(Math.min(clients, availableParallelism()));
    // -n: no vacuum of pgbench's own tables, which this database does not have.
    const { stdout } = await run(binary, [
      "-n",
      "-f",
      script,
      "-c",
      String(clients),
      "-j",
      threads,
      "-T",
      String(seconds),
      url,
    ]);
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout)?.[1];
    if (!tps) throw new Error(`pgbench printed no tps:\n${stdout}`);
    return Number(tps);
  } finally {
    await rm(script, { force: true });
  }
}
