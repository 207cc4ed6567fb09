import { randomUUID } from "node:crypto";
import type { Tx } from "../core/db/db.js";
import { newId } from "../core/ids.js";

/** Event types the service emits (conventions §7.4). */
/** Every event type the outbox writes (conventions §7.4), as values: `GET /events` filters by these. */
export const EVENT_TYPES = [
  "OUTGOING_PAYMENT.PENDING",
  "OUTGOING_PAYMENT.PENDING_AUTHORIZATION",
  "OUTGOING_PAYMENT.PROCESSING",
  "OUTGOING_PAYMENT.COMPLETED",
  "OUTGOING_PAYMENT.FAILED",
  "OUTGOING_PAYMENT.EXPIRED",
  "OUTGOING_PAYMENT.REFUND_PENDING",
  "OUTGOING_PAYMENT.REFUND_COMPLETED",
  "OUTGOING_PAYMENT.REFUND_FAILED",
  "INCOMING_PAYMENT.PENDING",
  "INCOMING_PAYMENT.COMPLETED",
  "INCOMING_PAYMENT.FAILED",
  "INCOMING_PAYMENT.REFUND_PENDING",
  "INCOMING_PAYMENT.REFUND_COMPLETED",
  "INCOMING_PAYMENT.REFUND_FAILED",
  "CUSTOMER.KYC_APPROVED",
  "CUSTOMER.KYC_REJECTED",
  "CUSTOMER.KYC_PENDING",
  "CUSTOMER.KYB_APPROVED",
  "CUSTOMER.KYB_REJECTED",
  "CUSTOMER.KYB_PENDING",
  "VERIFICATION.APPROVED",
  "VERIFICATION.REJECTED",
  "VERIFICATION.RESOLVE_ERRORS",
  "VERIFICATION.IN_PROGRESS",
  "VERIFICATION.PENDING_MANUAL_REVIEW",
  "VERIFICATION.READY_FOR_VERIFICATION",
  "EXTERNAL_ACCOUNT.STATUS_UPDATED",
  "INTERNAL_ACCOUNT.BALANCE_UPDATED",
  "INTERNAL_ACCOUNT.STATUS_UPDATED",
  "INTERNAL_ACCOUNT.FUNDING_INSTRUCTIONS_UPDATED",
  "CARD.STATUS_CHANGE",
  "CARD.PIN_STATUS_CHANGE",
  "CARD.FUNDING_SOURCE_CHANGE",
  "CARD_TRANSACTION.AUTHORIZED",
  "CARD_TRANSACTION.PARTIALLY_SETTLED",
  "CARD_TRANSACTION.SETTLED",
  "CARD_TRANSACTION.VOIDED",
  "CARD_TRANSACTION.EXCEPTION",
  "CARD_TRANSACTION.DECLINED",
  "INVITATION.CLAIMED",
  "BULK_UPLOAD.COMPLETED",
  "BULK_UPLOAD.FAILED",
  "AGENT_ACTION.PENDING_APPROVAL",
  "TEST",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The job kind that delivered one webhook_deliveries row before a delivery row became its own job
 * (webhooks/dispatcher.ts); rows of it still pending from before are finished without sending.
 */
export const DELIVER_JOB = "webhooks.deliver";

export interface NewEvent {
  platformId: string;
  type: EventType;
  data: unknown;
  /** The platform's now (its sandbox clock): the event timestamp, and when the first attempt is due. */
  now: Date;
}

/**
 * Inserts a delivery row for an event: PENDING when an endpoint is set, else UNDELIVERABLE. A scheduled
 * delivery is due at once (the row is its own job, webhooks/dispatcher.ts); an unscheduled one has no
 * next attempt until the caller's own attempt fails.
 */
export async function addDelivery(
  tx: Tx,
  event: { id: string; platformId: string; now: Date },
  options: { schedule: boolean },
): Promise<{ deliveryId: string; endpoint: string | null }> {
  const [platform] = await tx.query<{ webhook_endpoint: string | null }>(
    "SELECT webhook_endpoint FROM platforms WHERE id = $1",
    [event.platformId],
  );
  const endpoint = platform?.webhook_endpoint ?? null;
  const deliveryId = `WebhookDelivery:${randomUUID()}`;
  await tx.query(
    `INSERT INTO webhook_deliveries (id, event_id, platform_id, state, attempts, next_attempt_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, 0, $5, $6, $6)`,
    [
      deliveryId,
      event.id,
      event.platformId,
      endpoint ? "PENDING" : "UNDELIVERABLE",
      endpoint && options.schedule ? event.now : null,
      event.now,
    ],
  );
  return { deliveryId, endpoint };
}

/**
 * Writes an event to the outbox inside the caller's transaction, so it commits with the change that
 * causes it or not at all, with its delivery due at once (or recorded as undeliverable when no endpoint
 * is set). The envelope `{id, type, timestamp, data}` is serialized once.
 */
export async function enqueueEvent(tx: Tx, event: NewEvent, options = { schedule: true }): Promise<string> {
  if (!options.schedule) return (await enqueueUnscheduledEvent(tx, event)).eventId;
  const [id] = await enqueueEvents(tx, [event]);
  if (id === undefined) throw new Error("the outbox wrote no event");
  return id;
}

/**
 * An event whose one delivery the caller sends itself (webhooks/answered-delivery.ts, the sandbox test
 * event): written as enqueueEvent writes it, its delivery PENDING with no next attempt, so no dispatcher
 * sends it meanwhile (UNDELIVERABLE without an endpoint).
 */
export async function enqueueUnscheduledEvent(
  tx: Tx,
  event: NewEvent,
): Promise<{ eventId: string; deliveryId: string; endpoint: string | null }> {
  const eventId = newId("Webhook");
  const body = JSON.stringify({
    id: eventId,
    type: event.type,
    timestamp: event.now.toISOString(),
    data: event.data,
  });
  await tx.query(
    "INSERT INTO webhook_events (id, platform_id, type, body, created_at) VALUES ($1, $2, $3, $4, $5)",
    [eventId, event.platformId, event.type, body, event.now],
  );
  const delivery = await addDelivery(
    tx,
    { id: eventId, platformId: event.platformId, now: event.now },
    { schedule: false },
  );
  return { eventId, ...delivery };
}

/**
 * Several events of one platform at one instant (a transfer's two payment events, a posting's balance
 * events), written as enqueueEvent writes each, in one statement: the events and their deliveries (PENDING
 * and due now when the platform has an endpoint, else UNDELIVERABLE). Answers the event ids.
 */
export async function enqueueEvents(tx: Tx, events: NewEvent[]): Promise<string[]> {
  const statement = eventsStatement(events);
  if (statement) await tx.query(statement.text, statement.params);
  return statement?.ids ?? [];
}

/** enqueueEvents' statement, for a caller that sends it itself (with the commit: webhooks/commit-batch). */
export function eventsStatement(
  events: NewEvent[],
): { text: string; params: unknown[]; ids: string[] } | undefined {
  const first = events[0];
  if (first === undefined) return undefined;
  if (events.some((e) => e.platformId !== first.platformId || e.now.getTime() !== first.now.getTime()))
    throw new Error("enqueueEvents takes events of one platform at one instant");
  const ids = events.map(() => newId("Webhook"));
  const timestamp = first.now.toISOString();
  // One JSON parameter rather than text arrays: the driver escapes each array element in JavaScript, while
  // JSON.stringify is native (issue 20); json_to_recordset gives each body back as the exact text written.
  const rows = events.map((e, i) => ({
    id: ids[i],
    type: e.type,
    body: JSON.stringify({ id: ids[i], type: e.type, timestamp, data: e.data }),
    delivery_id: `WebhookDelivery:${randomUUID()}`,
  }));
  return {
    text: `WITH endpoint AS (SELECT webhook_endpoint FROM platforms WHERE id = $1 AND webhook_endpoint IS NOT NULL),
     input AS (SELECT * FROM json_to_recordset($3::json) AS e(id text, type text, body text, delivery_id text)),
     new_events AS (
       INSERT INTO webhook_events (id, platform_id, type, body, created_at)
       SELECT e.id, $1, e.type, e.body, $2 FROM input e)
     INSERT INTO webhook_deliveries (id, event_id, platform_id, state, attempts, next_attempt_at, created_at, updated_at)
     SELECT d.delivery_id, d.id, $1, CASE WHEN EXISTS (SELECT 1 FROM endpoint) THEN 'PENDING' ELSE 'UNDELIVERABLE' END,
            0, CASE WHEN EXISTS (SELECT 1 FROM endpoint) THEN $2::timestamptz END, $2, $2
     FROM input d`,
    params: [first.platformId, first.now, JSON.stringify(rows)],
    ids,
  };
}
