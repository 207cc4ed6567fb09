import type { Executor, Tx } from "../core/db/db.js";
import type { Deps, WebhookTimeouts } from "../core/deps.js";
import type { Environment } from "../core/http/context.js";
import { targetPolicy } from "../core/outbound/targets.js";
import { secretsOf } from "../core/secrets/process-box.js";
import type { DeliveryErrorClass } from "./schemas.js";
import { DEFAULT_WEBHOOK_TIMEOUTS, postWebhook, type SendResult } from "./sender.js";
import { signatureHeader } from "./signing-keys.js";

const MINUTE_MS = 60_000;
/** Retries stop this long after the first attempt, and the delivery is FAILED (conventions §7.1). */
export const RETRY_WINDOW_MS = 7 * 24 * 60 * MINUTE_MS;

/** Retry `n` waits min(30 min, 30 s × 2^(n−1)) × U[0.75, 1.25], never more than 30 min (conventions §7.1). */
export function retryDelayMs(n: number, random: () => number = Math.random): number {
  const base = Math.min(30 * MINUTE_MS, 30_000 * 2 ** (n - 1));
  return Math.min(30 * MINUTE_MS, Math.round(base * (0.75 + 0.5 * random())));
}

export interface LoadedDelivery {
  [column: string]: unknown;
  id: string;
  event_id: string;
  platform_id: string;
  state: "PENDING" | "DELIVERED" | "FAILED" | "UNDELIVERABLE";
  attempts: number;
  first_attempt_at: Date | null;
  body: string;
  type: string;
  webhook_endpoint: string | null;
  clock_offset_ms: number;
  /** The platform's environment: which addresses its endpoint may resolve to (core/outbound). */
  environment: Environment;
}

/** A delivery with what sending it needs: the stored body, the event type and the current endpoint. */
export async function loadDelivery(db: Executor, deliveryId: string): Promise<LoadedDelivery | undefined> {
  const [row] = await db.query<LoadedDelivery>(
    `SELECT d.*, e.body, e.type, p.webhook_endpoint, p.clock_offset_ms, p.environment FROM webhook_deliveries d
       JOIN webhook_events e ON e.id = d.event_id JOIN platforms p ON p.id = d.platform_id WHERE d.id = $1`,
    [deliveryId],
  );
  return row;
}

export type Outcome =
  | { state: "DELIVERED" | "FAILED" | "UNDELIVERABLE" }
  | { state: "PENDING"; nextAt: Date };

/** 2xx and 409 stop retries (spec Events rule 1); anything else, including a 3xx, is retried. */
export function isDelivered(result: SendResult): boolean {
  return result.ok && ((result.status >= 200 && result.status < 300) || result.status === 409);
}

/** What an attempt records as its error: a class only (core/outbound), HTTP_STATUS for an unwanted answer. */
function attemptError(result: SendResult): DeliveryErrorClass | null {
  if (!result.ok) return result.error;
  return isDelivered(result) ? null : "HTTP_STATUS";
}

function decide(
  delivery: LoadedDelivery,
  result: SendResult,
  attempt: number,
  now: Date,
  delivered: (result: SendResult) => boolean,
): Outcome {
  if (delivered(result)) return { state: "DELIVERED" };
  if (delivery.type === "TEST") return { state: "FAILED" };
  const first = delivery.first_attempt_at ?? now;
  const nextAt = new Date(now.getTime() + retryDelayMs(attempt));
  if (nextAt.getTime() > first.getTime() + RETRY_WINDOW_MS) return { state: "FAILED" };
  return { state: "PENDING", nextAt };
}

async function recordAttempt(
  tx: Tx,
  delivery: LoadedDelivery,
  sent: { url: string; result: SendResult },
  now: Date,
  delivered: (result: SendResult) => boolean,
): Promise<Outcome> {
  const attempt = delivery.attempts + 1;
  const { result } = sent;
  await tx.query(
    `INSERT INTO webhook_attempts (delivery_id, attempt, url, status_code, error, latency_ms, attempted_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      delivery.id,
      attempt,
      sent.url,
      result.ok ? result.status : null,
      delivered(result) ? null : attemptError(result),
      result.latencyMs,
      now,
    ],
  );
  const outcome = decide(delivery, result, attempt, now, delivered);
  await tx.query(
    `UPDATE webhook_deliveries SET state = $2, attempts = $3, first_attempt_at = COALESCE(first_attempt_at, $4),
       next_attempt_at = $5, locked_until = NULL, updated_at = $4 WHERE id = $1`,
    [delivery.id, outcome.state, attempt, now, outcome.state === "PENDING" ? outcome.nextAt : null],
  );
  return outcome;
}

export interface AttemptOptions {
  /** Which answers end the delivery (default: 2xx and 409); any other is retried. */
  delivered?: (result: SendResult) => boolean;
  timeouts?: WebhookTimeouts;
}

/**
 * One attempt: signs the stored bytes afresh (new `t`), POSTs them with no transaction open (PGlite has
 * one session, and a receiver may take 15 s), then records the attempt and its outcome in one
 * transaction, where `after` (the job's finish or reschedule) commits with it.
 */
export async function attemptDelivery(
  deps: Deps,
  delivery: LoadedDelivery & { webhook_endpoint: string },
  after: (tx: Tx, outcome: Outcome) => Promise<void> = async () => undefined,
  options: AttemptOptions = {},
): Promise<{ outcome: Outcome; result: SendResult; url: string }> {
  const delivered = options.delivered ?? isDelivered;
  const url = delivery.webhook_endpoint;
  const signature = await signatureHeader(
    deps.db,
    delivery.platform_id,
    delivery.body,
    deps.clock.now(),
    secretsOf(deps),
  );
  const result = await postWebhook(
    url,
    delivery.body,
    signature,
    options.timeouts ?? deps.webhookTimeouts ?? DEFAULT_WEBHOOK_TIMEOUTS,
    targetPolicy(deps.outbound, delivery.environment),
  );
  const now = new Date(deps.clock.now().getTime() + delivery.clock_offset_ms);
  const outcome = await deps.db.transaction(async (tx) => {
    const recorded = await recordAttempt(tx, delivery, { url, result }, now, delivered);
    await after(tx, recorded);
    return recorded;
  });
  return { outcome, result, url };
}

/** How long one sender holds a delivery: longer than the 15 s total timeout plus recording it. */
export const SEND_LEASE_MS = 60_000;

/**
 * Takes a short lease on one delivery right before sending. The job claim leases a whole batch at once,
 * and a batch of slow receivers can outlast that lease; this per-delivery lease is what guarantees that
 * two runners never send one delivery at the same time. Returns false when another sender holds it.
 */
export async function leaseDelivery(
  deps: Deps,
  deliveryId: string,
  timeouts: { totalTimeoutMs: number },
): Promise<boolean> {
  const now = deps.clock.now();
  const until = new Date(now.getTime() + Math.max(SEND_LEASE_MS, timeouts.totalTimeoutMs * 2));
  const rows = await deps.db.query(
    `UPDATE webhook_deliveries SET locked_until = $2 WHERE id = $1 AND state = 'PENDING'
       AND (locked_until IS NULL OR locked_until < $3) RETURNING id`,
    [deliveryId, until, now],
  );
  return rows.length === 1;
}

/** Marks a delivery undeliverable (its endpoint was cleared before the attempt). */
export async function markUndeliverable(tx: Tx, deliveryId: string, now: Date): Promise<void> {
  await tx.query(
    "UPDATE webhook_deliveries SET state = 'UNDELIVERABLE', next_attempt_at = NULL, updated_at = $2 WHERE id = $1",
    [deliveryId, now],
  );
}
