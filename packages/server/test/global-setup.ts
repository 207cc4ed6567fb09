import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrate } from "../src/core/db/migrate.js";
import { openPglite } from "../src/core/db/pglite.js";
import { openPostgres } from "../src/core/db/postgres.js";
import { buildPaysvc, paysvcBin } from "./paysvc-build.js";
import { type DbTemplate, databaseUrlFor } from "./test-db.js";

declare module "vitest" {
  export interface ProvidedContext {
    dbTemplate: DbTemplate;
    /** What spawned `paysvc` processes start from (test/paysvc-process.ts). */
    paysvcTemplate: PaysvcTemplate;
  }
}

export interface PaysvcTemplate {
  /** The compiled bin, `packages/server/dist/main.js`, usable once `buildStatusFile` exists and says ok. */
  entry: string;
  buildStatusFile: string;
  /** A migrated embedded-database directory (a data directory's `db/`), to copy for each spawned process. */
  dataDir: string;
}

/**
 * Migrates one embedded database per run (a fresh PGlite costs seconds; a copy of a migrated one does not),
 * kept as a directory for spawned processes and as a dump that each test worker loads; with DATABASE_URL,
 * also a PostgreSQL template database that each worker clones. The build for spawned processes goes on
 * in the background (test/paysvc-build.ts).
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), "paysvc-template-"));
  const buildStatusFile = join(dir, "build.json");
  const building = buildPaysvc(buildStatusFile);
  const dataDir = join(dir, "db");
  const db = await openPglite({ dataDir });
  await migrate(db);
  const templateFile = join(dir, "template.tar");
  await writeFile(templateFile, Buffer.from(await (await db.dump()).arrayBuffer()));
  await db.close();
  const removeDir = async () => {
    await building;
    await rm(dir, { recursive: true, force: true });
  };
  project.provide("paysvcTemplate", { entry: paysvcBin, buildStatusFile, dataDir });

  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    project.provide("dbTemplate", { kind: "pglite", templateFile });
    return removeDir;
  }
  const templateName = `paysvc_template_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${templateName}`);
  const pgDb = openPostgres(databaseUrlFor(adminUrl, templateName), 1);
  await migrate(pgDb);
  await pgDb.close();
  project.provide("dbTemplate", { kind: "postgres", adminUrl, templateName });
  return async () => {
    // Workers keep their database until the process ends (test/worker-app.ts): drop those copies too.
    const copies = await admin.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE $1",
      [`${templateName}\\_%`],
    );
    for (const { datname } of copies.rows)
      await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    await admin.query(`DROP DATABASE IF EXISTS ${templateName} WITH (FORCE)`);
    await admin.end();
    await removeDir();
  };
}
