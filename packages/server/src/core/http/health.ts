import type { FastifyInstance } from "fastify";
import type { Db } from "../db/db.js";

/** /readyz answers within this long: a database that does not answer by then is reported down. */
export const READINESS_TIMEOUT_MS = 2_000;

/** Whether the database answers a ping within `timeoutMs`. */
async function databaseAnswers(db: Db, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([
      db.ping().then(
        () => true,
        () => false,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Liveness and readiness probes, outside the version segment and without credentials. */
export function registerHealth(
  app: FastifyInstance,
  db: Db,
  readinessTimeoutMs = READINESS_TIMEOUT_MS,
): void {
  const config = { public: true };
  app.get("/healthz", { config, schema: { hide: true } }, async () => ({ status: "ok" }));
  app.get("/readyz", { config, schema: { hide: true } }, async (_request, reply) => {
    if (await databaseAnswers(db, readinessTimeoutMs)) return { status: "ready", checks: { database: "up" } };
    // A probe answer, not an API error: load balancers read the status code.
    return reply.code(503).send({ status: "unavailable", checks: { database: "down" } });
  });
}
