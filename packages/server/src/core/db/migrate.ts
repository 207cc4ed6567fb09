import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { sha256Hex } from "../hash.js";
import type { Db } from "./db.js";

/** packages/server/migrations, from src/core/db or dist/core/db alike. */
export const migrationsDir = fileURLToPath(new URL("../../../migrations/", import.meta.url));

interface Journal {
  entries: { idx: number; tag: string }[];
}

export interface Migration {
  name: string;
  sql: string;
  sha256: string;
}

/** The ordered migrations drizzle-kit generated (migrations/meta/_journal.json order). */
export async function loadMigrations(dir: string = migrationsDir): Promise<Migration[]> {
  const journal = JSON.parse(await readFile(`${dir}meta/_journal.json`, "utf8")) as Journal;
  const ordered = [...journal.entries].sort((a, b) => a.idx - b.idx);
  return Promise.all(
    ordered.map(async ({ tag }) => {
      const sql = await readFile(`${dir}${tag}.sql`, "utf8");
      return { name: tag, sql, sha256: sha256Hex(sql) };
    }),
  );
}

/**
 * Applies every migration not yet recorded in `paysvc_migrations`, each in its own transaction under an
 * advisory lock, so concurrent starts on one PostgreSQL apply each migration once. Returns the names applied.
 * A recorded migration whose file changed is an error: migrations are forward-only.
 */
export async function migrate(db: Db, migrations?: Migration[]): Promise<string[]> {
  const all = migrations ?? (await loadMigrations());
  await db.query(
    `CREATE TABLE IF NOT EXISTS paysvc_migrations (
       name text PRIMARY KEY, sha256 text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
  );
  const applied: string[] = [];
  for (const migration of all) {
    const didApply = await db.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock(7262100)");
      const [existing] = await tx.query<{ sha256: string }>(
        "SELECT sha256 FROM paysvc_migrations WHERE name = $1",
        [migration.name],
      );
      if (existing) {
        if (existing.sha256 !== migration.sha256) {
          throw new Error(
            `migration ${migration.name} changed after it was applied; add a new migration instead`,
          );
        }
        return false;
      }
      for (const statement of migration.sql.split("--> statement-breakpoint")) {
        if (statement.trim()) await tx.query(statement);
      }
      await tx.query("INSERT INTO paysvc_migrations (name, sha256) VALUES ($1, $2)", [
        migration.name,
        migration.sha256,
      ]);
      return true;
    });
    if (didApply) applied.push(migration.name);
  }
  return applied;
}
