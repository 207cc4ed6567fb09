/** Every event type the service emits (conventions §7.4; server `src/webhooks/outbox.ts` EVENT_TYPES). */
export type WebhookEventType =
  | `OUTGOING_PAYMENT.${"PENDING" | "PENDING_AUTHORIZATION" | "PROCESSING" | "COMPLETED" | "FAILED" | "EXPIRED" | "REFUND_PENDING" | "REFUND_COMPLETED" | "REFUND_FAILED"}`
  | `INCOMING_PAYMENT.${"PENDING" | "COMPLETED" | "FAILED" | "REFUND_PENDING" | "REFUND_COMPLETED" | "REFUND_FAILED"}`
  | `CUSTOMER.${"KYC_APPROVED" | "KYC_REJECTED" | "KYC_PENDING" | "KYB_APPROVED" | "KYB_REJECTED" | "KYB_PENDING"}`
  | `VERIFICATION.${"APPROVED" | "REJECTED" | "RESOLVE_ERRORS" | "IN_PROGRESS" | "PENDING_MANUAL_REVIEW" | "READY_FOR_VERIFICATION"}`
  | "EXTERNAL_ACCOUNT.STATUS_UPDATED"
  | `INTERNAL_ACCOUNT.${"BALANCE_UPDATED" | "STATUS_UPDATED" | "FUNDING_INSTRUCTIONS_UPDATED"}`
  | `CARD.${"STATUS_CHANGE" | "PIN_STATUS_CHANGE" | "FUNDING_SOURCE_CHANGE"}`
  | `CARD_TRANSACTION.${"AUTHORIZED" | "PARTIALLY_SETTLED" | "SETTLED" | "VOIDED" | "EXCEPTION" | "DECLINED"}`
  | "INVITATION.CLAIMED"
  | `BULK_UPLOAD.${"COMPLETED" | "FAILED"}`
  | "AGENT_ACTION.PENDING_APPROVAL"
  | "TEST";

/**
 * `GET /events` filters (server `ListEventsQuery`): `type` is one event type or several (sent as a repeated
 * parameter); `createdAfter` and `createdBefore` are inclusive RFC 3339 instants with an explicit offset.
 */
export interface ListEventsParams {
  type?: WebhookEventType | WebhookEventType[];
  createdAfter?: string;
  createdBefore?: string;
  limit?: number;
  cursor?: string;
  sortOrder?: "asc" | "desc";
}
