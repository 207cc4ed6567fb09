import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors/api-error.js";

/** Seconds a client refused during the drain waits before it retries (docs/decisions.md). */
export const DRAIN_RETRY_AFTER_SECONDS = 5;

/**
 * While the app drains for shutdown (`app.close()` lets in-flight requests finish), a request that
 * still arrives on an open connection is `503 SERVICE_UNAVAILABLE` in the catalogue's body with
 * `Retry-After` and `Connection: close`, so the client retries on a new connection (another instance,
 * or this one restarted). Fastify's `return503OnClosing` answered it in Fastify's own body, without
 * `X-Request-Id`. Registered before authentication: a draining service starts no new work.
 */
export function registerShutdownDrain(app: FastifyInstance): void {
  let draining = false;
  app.addHook("preClose", async () => {
    draining = true;
  });
  app.addHook("onRequest", async () => {
    if (!draining) return;
    throw new ApiError("SERVICE_UNAVAILABLE", {
      headers: { "retry-after": String(DRAIN_RETRY_AFTER_SECONDS), connection: "close" },
    });
  });
}
