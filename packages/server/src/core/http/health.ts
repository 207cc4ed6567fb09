import type { FastifyInstance } from "fastify";
import type { Db } from "../db/db.js";

/** Liveness and readiness probes, outside the version segment and without credentials. */
export function registerHealth(app: FastifyInstance, db: Db): void {
  const config = { public: true };
  app.get("/healthz", { config, schema: { hide: true } }, async () => ({ status: "ok" }));
  app.get("/readyz", { config, schema: { hide: true } }, async (_request, reply) => {
    try {
      await db.ping();
      return { status: "ready" };
    } catch {
      // A probe answer, not an API error: load balancers read the status code.
      return reply.code(503).send({ status: "unavailable", checks: { database: "down" } });
    }
  });
}
