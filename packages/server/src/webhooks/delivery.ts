import type { Executor } from "../core/db/db.js";
import type { Deps, WebhookTimeouts } from "../core/deps.js";
import type { Environment } from "../core/http/context.js";
import { countDeliveryAttempt } from "../core/metrics/metrics.js";
import { targetPolicy } from "../core/outbound/targets.js";
import { secretsOf } from "../core/secrets/process-box.js";
import { logFailedAttempt } from "./failed-attempt-log.js";
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

/** What one attempt (or the finding that there is no endpoint to attempt) writes: webhooks' bulk record. */
export interface AttemptRecord {
  deliveryId: string;
  /** The lease the sender took (`leaseDelivery`, the dispatcher's claim); null when it took none. */
  lease: Date | null;
  /** Absent when the endpoint was cleared before the attempt: the delivery is UNDELIVERABLE, unsent. */
  attempt?: { number: number; url: string; result: SendResult; error: DeliveryErrorClass | null };
  outcome: Outcome | { state: "UNDELIVERABLE" };
  /** The platform's now (its sandbox clock) when the attempt ended. */
  at: Date;
}

/** The record of one attempt at `delivery` and the outcome it decides. */
export function attemptRecord(
  delivery: LoadedDelivery,
  lease: Date | null,
  sent: { url: string; result: SendResult },
  now: Date,
  delivered: (result: SendResult) => boolean = isDelivered,
): AttemptRecord & { outcome: Outcome } {
  const number = delivery.attempts + 1;
  const { result } = sent;
  const error = delivered(result) ? null : attemptError(result);
  const outcome = decide(delivery, result, number, now, delivered);
  return {
    deliveryId: delivery.id,
    lease,
    attempt: { number, url: sent.url, result, error },
    outcome,
    at: now,
  };
}

/**
 * Records attempts and their outcomes, any number in one statement (so one round trip and one commit per
 * batch). A record applies only while the sender still holds the lease it took: one whose lease ran out
 * and was taken by another sender is dropped (that sender records its own attempt), and recording the
 * same batch twice writes it once.
 */
export async function recordAttempts(db: Executor, records: readonly AttemptRecord[]): Promise<void> {
  if (records.length === 0) return;
  const column = <T>(pick: (r: AttemptRecord) => T) => records.map(pick);
  await db.query(
    `WITH r AS (
       SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::int[], $4::text[], $5::int[], $6::text[], $7::int[],
                            $8::timestamptz[], $9::text[], $10::timestamptz[])
         AS r(id, lease, attempt, url, status_code, error, latency_ms, at, state, next_attempt_at)),
     recorded AS (
       UPDATE webhook_deliveries d SET state = r.state, attempts = COALESCE(r.attempt, d.attempts),
         first_attempt_at = CASE WHEN r.attempt IS NULL THEN d.first_attempt_at ELSE COALESCE(d.first_attempt_at, r.at) END,
         next_attempt_at = r.next_attempt_at, locked_until = NULL, updated_at = r.at
       FROM r WHERE d.id = r.id AND d.locked_until IS NOT DISTINCT FROM r.lease
       RETURNING d.id)
     INSERT INTO webhook_attempts (delivery_id, attempt, url, status_code, error, latency_ms, attempted_at)
     SELECT r.id, r.attempt, r.url, r.status_code, r.error, r.latency_ms, r.at
     FROM r JOIN recorded ON recorded.id = r.id WHERE r.attempt IS NOT NULL`,
    [
      column((r) => r.deliveryId),
      column((r) => r.lease?.toISOString() ?? null),
      column((r) => r.attempt?.number ?? null),
      column((r) => r.attempt?.url ?? null),
      column((r) => (r.attempt?.result.ok ? r.attempt.result.status : null)),
      column((r) => r.attempt?.error ?? null),
      column((r) => r.attempt?.result.latencyMs ?? null),
      column((r) => r.at.toISOString()),
      column((r) => r.outcome.state),
      column((r) => (r.outcome.state === "PENDING" ? r.outcome.nextAt.toISOString() : null)),
    ],
  );
}

export interface AttemptOptions {
  /** Which answers end the delivery (default: 2xx and 409); any other is retried. */
  delivered?: (result: SendResult) => boolean;
  timeouts?: WebhookTimeouts;
  /** The lease the caller took on the delivery (`leaseDelivery`); the attempt is recorded only under it. */
  lease?: Date;
}

/** The platform's now (its sandbox clock offset applied to the service clock). */
export const platformNow = (deps: Deps, delivery: { clock_offset_ms: number }): Date =>
  new Date(deps.clock.now().getTime() + delivery.clock_offset_ms);

/**
 * Signs the stored bytes afresh (new `t`) with the platform's current key and POSTs them once, with no
 * transaction open (PGlite has one session, and a receiver may take 15 s).
 */
export async function sendDelivery(
  deps: Deps,
  delivery: LoadedDelivery & { webhook_endpoint: string },
  timeouts?: WebhookTimeouts,
): Promise<SendResult> {
  const signature = await signatureHeader(
    deps.db,
    delivery.platform_id,
    delivery.body,
    deps.clock.now(),
    secretsOf(deps),
  );
  return postWebhook(
    delivery.webhook_endpoint,
    delivery.body,
    signature,
    timeouts ?? deps.webhookTimeouts ?? DEFAULT_WEBHOOK_TIMEOUTS,
    targetPolicy(deps.outbound, delivery.environment),
  );
}

/**
 * One attempt sent by its caller (the sandbox test event, an answered delivery): sends it, then records
 * the attempt and its outcome. A PENDING outcome is due again at its next attempt, for the dispatcher.
 */
export async function attemptDelivery(
  deps: Deps,
  delivery: LoadedDelivery & { webhook_endpoint: string },
  options: AttemptOptions = {},
): Promise<{ outcome: Outcome; result: SendResult; url: string }> {
  const url = delivery.webhook_endpoint;
  const result = await sendDelivery(deps, delivery, options.timeouts);
  const record = attemptRecord(
    delivery,
    options.lease ?? null,
    { url, result },
    platformNow(deps, delivery),
    options.delivered,
  );
  logFailedAttempt(deps.logger, delivery, record);
  countDeliveryAttempt(deps, record);
  await recordAttempts(deps.db, [record]);
  return { outcome: record.outcome, result, url };
}

/** How long one sender holds a delivery: longer than the 15 s total timeout plus recording it. */
export const SEND_LEASE_MS = 60_000;

/** The end of a lease taken now: it outlasts a send (total timeout) and its recording, twice over. */
export function leaseUntil(now: Date, timeouts: { totalTimeoutMs: number }): Date {
  return new Date(now.getTime() + Math.max(SEND_LEASE_MS, timeouts.totalTimeoutMs * 2));
}

/**
 * Takes a lease on one delivery right before sending it: the lease (`locked_until`) is what guarantees
 * that two senders never send one delivery at the same time (the dispatcher's claim takes the same lease
 * in bulk). Answers the lease, or undefined when another sender holds it or it is not PENDING.
 */
export async function leaseDelivery(
  deps: Deps,
  deliveryId: string,
  timeouts: { totalTimeoutMs: number },
): Promise<Date | undefined> {
  const now = deps.clock.now();
  const until = leaseUntil(now, timeouts);
  const rows = await deps.db.query(
    `UPDATE webhook_deliveries SET locked_until = $2 WHERE id = $1 AND state = 'PENDING'
       AND (locked_until IS NULL OR locked_until < $3) RETURNING id`,
    [deliveryId, until, now],
  );
  return rows.length === 1 ? until : undefined;
}
