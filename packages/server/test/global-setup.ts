import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrate } from "../src/core/db/migrate.js";
import { openPglite } from "../src/core/db/pglite.js";
import { openPostgres } from "../src/core/db/postgres.js";
import { type DbTemplate, databaseUrlFor } from "./test-db.js";

declare module "vitest" {
  export interface ProvidedContext {
    dbTemplate: DbTemplate;
  }
}

/**
 * Migrates one template database per run (a fresh PGlite costs seconds; a copy of a migrated one does
 * not) and hands every test file a fresh copy: a PGlite data-dir dump, or a PostgreSQL template database.
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const adminUrl = process.env.DATABASE_URL;
  if (adminUrl) {
    const templateName = `paysvc_template_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${templateName}`);
    const db = openPostgres(databaseUrlFor(adminUrl, templateName), 1);
    await migrate(db);
    await db.close();
    project.provide("dbTemplate", { kind: "postgres", adminUrl, templateName });
    return async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${templateName} WITH (FORCE)`);
      await admin.end();
    };
  }
  const dir = await mkdtemp(join(tmpdir(), "paysvc-template-"));
  const db = await openPglite();
  await migrate(db);
  const templateFile = join(dir, "template.tar");
  await writeFile(templateFile, Buffer.from(await (await db.dump()).arrayBuffer()));
  await db.close();
  project.provide("dbTemplate", { kind: "pglite", templateFile });
  return () => rm(dir, { recursive: true, force: true });
}
