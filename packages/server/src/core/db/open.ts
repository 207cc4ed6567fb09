import type { Db } from "./db.js";
import { groupCommitSettingsFrom } from "./group-commit.js";
import { openPglite } from "./pglite.js";
import { openPostgres, postgresPoolSizeFrom, postgresTimeoutsFrom } from "./postgres.js";

export type DatabaseTarget = { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string | null };

/**
 * Opens the configured database: PostgreSQL for a URL (its pool size and timeouts from `env`, PAYSVC_DB_*), otherwise
 * PGlite in a directory or in memory; on both, group commit as `env` sets it (PAYSVC_GROUP_COMMIT_*).
 */
export async function openDatabase(
  target: DatabaseTarget,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Db> {
  const groupCommit = groupCommitSettingsFrom(env);
  if (target.kind === "postgres")
    return openPostgres(target.url, postgresPoolSizeFrom(env), postgresTimeoutsFrom(env), groupCommit);
  return openPglite({
    ...(target.dataDir ? { dataDir: target.dataDir } : {}),
    groupCommitMax: groupCommit.maxBatch,
  });
}
