import type { Tx } from "../core/db/db.js";
import { newId } from "../core/ids.js";

/** Event types the service emits (conventions §7.4). */
export type EventType =
  | `OUTGOING_PAYMENT.${"PENDING" | "PENDING_AUTHORIZATION" | "PROCESSING" | "COMPLETED" | "FAILED" | "EXPIRED" | "REFUND_PENDING" | "REFUND_COMPLETED" | "REFUND_FAILED"}`
  | `INCOMING_PAYMENT.${"PENDING" | "COMPLETED" | "FAILED" | "REFUND_PENDING" | "REFUND_COMPLETED" | "REFUND_FAILED"}`
  | `CUSTOMER.${"KYC_APPROVED" | "KYC_REJECTED" | "KYC_PENDING" | "KYB_APPROVED" | "KYB_REJECTED" | "KYB_PENDING"}`
  | `VERIFICATION.${"APPROVED" | "REJECTED" | "RESOLVE_ERRORS" | "IN_PROGRESS" | "PENDING_MANUAL_REVIEW" | "READY_FOR_VERIFICATION"}`
  | "EXTERNAL_ACCOUNT.STATUS_UPDATED"
  | `INTERNAL_ACCOUNT.${"BALANCE_UPDATED" | "STATUS_UPDATED" | "FUNDING_INSTRUCTIONS_UPDATED"}`
  | `CARD.${"STATUS_CHANGE" | "PIN_STATUS_CHANGE" | "FUNDING_SOURCE_CHANGE"}`
  | `CARD_TRANSACTION.${"AUTHORIZED" | "PARTIALLY_SETTLED" | "SETTLED" | "VOIDED" | "EXCEPTION" | "DECLINED"}`
  | "TEST";

/**
 * Writes an event to the outbox inside the caller's transaction, so it commits with the change that
 * causes it or not at all. The envelope `{id, type, timestamp, data}` is serialized once, here.
 */
export async function enqueueEvent(
  tx: Tx,
  event: { platformId: string; type: EventType; data: unknown; now: Date },
): Promise<string> {
  const id = newId("Webhook");
  const body = JSON.stringify({ id, type: event.type, timestamp: event.now.toISOString(), data: event.data });
  await tx.query(
    "INSERT INTO webhook_events (id, platform_id, type, body, created_at) VALUES ($1, $2, $3, $4, $5)",
    [id, event.platformId, event.type, body, event.now],
  );
  return id;
}
