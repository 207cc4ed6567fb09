import type { Db } from "./db.js";
import { openPglite } from "./pglite.js";
import { openPostgres } from "./postgres.js";

export type DatabaseTarget = { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string | null };

/** Opens the configured database: PostgreSQL for a URL, otherwise PGlite in a directory or in memory. */
export async function openDatabase(target: DatabaseTarget): Promise<Db> {
  if (target.kind === "postgres") return openPostgres(target.url);
  return openPglite(target.dataDir ? { dataDir: target.dataDir } : {});
}
