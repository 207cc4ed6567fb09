import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";
import type { Db } from "../db/db.js";
import type { Deps } from "../deps.js";
import { registerDatabaseCollectors } from "./collectors.js";

/**
 * The service's Prometheus metrics (docs/decisions.md "Metrics (issue 22)"): one registry per app, so
 * two apps in one process (the tests) count apart. No label ever carries a platform, customer or any other
 * id: the route label is the route's template, and every other label has a closed set of values.
 */
export interface Metrics {
  readonly registry: Registry;
  /** Request latency in seconds by method, route template and status; its `_count` is the request count. */
  readonly httpDuration: Histogram<"method" | "route" | "status_code">;
  /** Webhook delivery attempts by outcome (and the error class of one that did not deliver). */
  readonly webhookAttempts: Counter<"outcome" | "error">;
  /** The bearer token a scraper must present (PAYSVC_METRICS_TOKEN). */
  readonly token: string;
}

// Deps carries the metrics to the HTTP hooks and the webhook dispatcher; declared here, by merging into
// Deps, so that the deps module names no metrics library (as wallet-auth/signed-retry.ts does).
declare module "../deps.js" {
  interface Deps {
    /** Set when /metrics is enabled (PAYSVC_METRICS_TOKEN); absent, nothing is measured. */
    metrics?: Metrics;
  }
}

/** Request latency buckets, seconds: from a cached read (a few ms) to a receiver-bound call (10 s). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The metrics of one app over `db`: Node's process metrics, the HTTP and webhook ones, the database's. */
export function createMetrics(db: Db, token: string): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const httpDuration = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request latency by method, route template and status code (its _count is the request count).",
    labelNames: ["method", "route", "status_code"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const webhookAttempts = new Counter({
    name: "paysvc_webhook_delivery_attempts_total",
    help: "Webhook delivery attempts by outcome (delivered, retrying, failed: retries given up) and error class.",
    labelNames: ["outcome", "error"] as const,
    registers: [registry],
  });
  registerDatabaseCollectors(registry, db);
  return { registry, httpDuration, webhookAttempts, token };
}

/** What a webhook attempt's record says (webhooks/delivery.ts AttemptRecord). */
interface AttemptOutcome {
  attempt?: { error: string | null };
  outcome: { state: "PENDING" | "DELIVERED" | "FAILED" | "UNDELIVERABLE" };
}

const OUTCOMES = {
  DELIVERED: "delivered",
  PENDING: "retrying",
  FAILED: "failed",
  UNDELIVERABLE: "undeliverable",
} as const;

/** Counts one webhook delivery attempt that was sent; a no-op while metrics are off. */
export function countDeliveryAttempt(deps: Pick<Deps, "metrics">, record: AttemptOutcome): void {
  if (!deps.metrics || !record.attempt) return;
  deps.metrics.webhookAttempts.inc({
    outcome: OUTCOMES[record.outcome.state],
    error: record.attempt.error ?? "none",
  });
}
