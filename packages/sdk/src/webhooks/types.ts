import type { WebhookEventType } from "../types/events.js";

/** One attempt of a delivery (server `src/webhooks/schemas.ts` WebhookAttempt). */
export interface WebhookAttempt {
  attempt: number;
  url: string;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  attemptedAt: string;
}

/** One delivery of one event, with every attempt. */
export interface WebhookDelivery {
  id: string;
  eventId: string;
  eventType: string;
  state: "PENDING" | "DELIVERED" | "FAILED" | "UNDELIVERABLE";
  attempts: WebhookAttempt[];
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ListDeliveriesQuery {
  eventId?: string;
  state?: "PENDING" | "DELIVERED" | "FAILED" | "UNDELIVERABLE";
  /** One event type, or several (sent as a repeated parameter). */
  type?: WebhookEventType | WebhookEventType[];
  limit?: number;
  cursor?: string;
  sortOrder?: "asc" | "desc";
}

/** `POST /sandbox/webhooks/test` answer (snake_case as conventions §7.3 writes it). */
export interface WebhookTestResult {
  url: string;
  response_status: number;
  response_body?: string;
}
