import type { FastifyBaseLogger } from "fastify";
import type { Db } from "./db.js";

/**
 * PGlite has no autovacuum, so planner statistics would stay those of an empty database and a
 * statement page on a large account would be planned as a bitmap scan plus sort. Re-analyse on a timer.
 * PostgreSQL's autovacuum does this itself.
 */
export function startPgliteMaintenance(
  db: Db,
  logger: FastifyBaseLogger,
  intervalMs = 5 * 60_000,
): () => void {
  if (db.kind !== "pglite") return () => undefined;
  const timer = setInterval(() => {
    db.query("ANALYZE").catch((error: unknown) => logger.warn({ err: error }, "ANALYZE failed"));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
