import type { FastifyBaseLogger } from "fastify";
import type { DeliveryErrorClass } from "./schemas.js";
import type { SendResult } from "./sender.js";

/** What the line reads of an attempt's record (delivery.ts AttemptRecord, which calls this). */
interface LoggedAttempt {
  attempt?: { number: number; result: SendResult; error: DeliveryErrorClass | null };
  outcome: { state: "DELIVERED" | "FAILED" | "UNDELIVERABLE" } | { state: "PENDING"; nextAt: Date };
}

/**
 * Logs an attempt that did not deliver (an answer other than 2xx or 409, a timeout, a connection error…)
 * at warn level: whose it was (platform, event, delivery) and how it ended. Never the body, the signature
 * or the endpoint URL (a URL may carry the platform's own secret), only the error's class.
 */
export function logFailedAttempt(
  logger: FastifyBaseLogger,
  delivery: { id: string; event_id: string; platform_id: string; type: string },
  record: LoggedAttempt,
): void {
  const attempt = record.attempt;
  if (!attempt || attempt.error === null) return;
  const { result } = attempt;
  logger.warn(
    {
      platformId: delivery.platform_id,
      eventId: delivery.event_id,
      deliveryId: delivery.id,
      eventType: delivery.type,
      attempt: attempt.number,
      error: attempt.error,
      ...(result.ok ? { statusCode: result.status } : {}),
      latencyMs: result.latencyMs,
      state: record.outcome.state,
      ...(record.outcome.state === "PENDING" ? { nextAttemptAt: record.outcome.nextAt.toISOString() } : {}),
    },
    "webhook delivery attempt failed",
  );
}
