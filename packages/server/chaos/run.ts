import { formatReport, runChaos } from "./chaos.js";

/**
 * `npm run chaos`: CHAOS_ROUNDS (default 10), CHAOS_SEED (default random, printed for replay),
 * CHAOS_ROUND_MS (load per round, default 3,000), CHAOS_WORKERS (concurrent clients, default 8),
 * CHAOS_HOLDERS (cardholders with an account and a card, default 4). DATABASE_URL names a PostgreSQL
 * server: a fresh database is created on it and dropped at the end; without it, PGlite and one process.
 */
async function main(): Promise<number> {
  const seed = process.env.CHAOS_SEED ? Number(process.env.CHAOS_SEED) : Math.floor(Math.random() * 2 ** 31);
  const options = {
    ...(process.env.DATABASE_URL ? { adminUrl: process.env.DATABASE_URL } : {}),
    rounds: Number(process.env.CHAOS_ROUNDS ?? 10),
    seed,
    roundMs: Number(process.env.CHAOS_ROUND_MS ?? 3_000),
    workers: Number(process.env.CHAOS_WORKERS ?? 8),
    holders: Number(process.env.CHAOS_HOLDERS ?? 4),
    log: (line: string) => console.log(line),
  };
  console.log(
    `paysvc chaos on ${options.adminUrl ? "PostgreSQL (2 processes)" : "PGlite (1 process)"}: ${options.rounds} rounds of ${options.roundMs} ms, ` +
      `${options.workers} clients, seed ${seed} (replay: CHAOS_SEED=${seed})`,
  );
  const started = Date.now();
  const report = await runChaos(options);
  console.log(formatReport(report));
  console.log(`took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return report.violations.length === 0 ? 0 : 1;
}

process.exitCode = await main();
