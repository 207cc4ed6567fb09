import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import pg from "pg";
import type { Db } from "../src/core/db/db.js";
import { openPglite } from "../src/core/db/pglite.js";
import { openPostgres } from "../src/core/db/postgres.js";

/** What the global setup prepared: a migrated template to copy for every test database. */
export type DbTemplate =
  | { kind: "pglite"; templateFile: string }
  | { kind: "postgres"; adminUrl: string; templateName: string };

export function databaseUrlFor(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** A fresh, migrated database: a PGlite loaded from the template dump, or a PostgreSQL database cloned from the template. */
export async function openTestDb(template: DbTemplate): Promise<Db> {
  if (template.kind === "pglite") {
    const dump = await readFile(template.templateFile);
    return openPglite({ loadDataDir: new Blob([dump]) });
  }
  // Named after the run's template, so the global teardown drops the ones a worker never closed.
  const name = `${template.templateName}_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: template.adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template.templateName}`);
  } finally {
    await admin.end();
  }
  const db = openPostgres(databaseUrlFor(template.adminUrl, name), 5);
  return {
    ...db,
    close: async () => {
      await db.close();
      const cleanup = new pg.Client({ connectionString: template.adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => cleanup.end());
    },
  };
}

/** An empty, unmigrated database of the run's kind (migration tests start here), dropped on close. */
export async function openEmptyTestDb(template: DbTemplate): Promise<{ db: Db; close: () => Promise<void> }> {
  if (template.kind === "pglite") {
    const db = await openPglite();
    return { db, close: () => db.close() };
  }
  // Named after the run's template, so the global teardown drops it if close never runs.
  const name = `${template.templateName}_${randomBytes(6).toString("hex")}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: template.adminUrl });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  await admin(`CREATE DATABASE ${name}`);
  const db = openPostgres(databaseUrlFor(template.adminUrl, name), 5);
  return {
    db,
    close: async () => {
      await db.close();
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
