import type { Deps } from "../core/deps.js";
import { nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { listPage, type PageResult, splitPageQuery } from "../core/http/pagination.js";
import { attemptDelivery, loadDelivery } from "./delivery.js";
import { eventTypesOf } from "./event-schemas.js";
import { addDelivery, enqueueUnscheduledEvent } from "./outbox.js";
import {
  DELIVERY_ERROR_CLASSES,
  type DeliveryErrorClass,
  type ListDeliveriesQuery,
  type WebhookDelivery,
  type WebhookTestResult,
} from "./schemas.js";

interface DeliveryRow {
  [column: string]: unknown;
  id: string;
  event_id: string;
  state: WebhookDelivery["state"];
  next_attempt_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

interface AttemptRow {
  [column: string]: unknown;
  delivery_id: string;
  attempt: number;
  url: string;
  status_code: number | null;
  error: string | null;
  latency_ms: number;
  attempted_at: Date;
}

/**
 * The stored error as a class. Attempts recorded before errors were classes hold the socket's text:
 * it is never shown, only CONNECTION_ERROR (or HTTP_STATUS when the attempt had an answer).
 */
function errorClass(attempt: AttemptRow): DeliveryErrorClass | null {
  const stored = attempt.error;
  if (stored === null) return null;
  const known = DELIVERY_ERROR_CLASSES.find((c) => c === stored);
  return known ?? (attempt.status_code === null ? "CONNECTION_ERROR" : "HTTP_STATUS");
}

async function toDeliveries(deps: Deps, rows: DeliveryRow[]): Promise<WebhookDelivery[]> {
  const ids = rows.map((r) => r.id);
  const attempts = await deps.db.query<AttemptRow>(
    "SELECT * FROM webhook_attempts WHERE delivery_id = ANY($1) ORDER BY attempt",
    [ids],
  );
  const types = await deps.db.query<{ id: string; type: string }>(
    "SELECT id, type FROM webhook_events WHERE id = ANY($1)",
    [rows.map((r) => r.event_id)],
  );
  return rows.map((r) => ({
    id: r.id,
    eventId: r.event_id,
    eventType: types.find((t) => t.id === r.event_id)?.type ?? "",
    state: r.state,
    attempts: attempts
      .filter((a) => a.delivery_id === r.id)
      .map((a) => ({
        attempt: a.attempt,
        url: a.url,
        statusCode: a.status_code,
        error: errorClass(a),
        latencyMs: a.latency_ms,
        attemptedAt: a.attempted_at.toISOString(),
      })),
    nextAttemptAt: r.next_attempt_at?.toISOString() ?? null,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  }));
}

/** `GET /webhooks/deliveries`: the platform's deliveries with every attempt, newest first. */
export async function listDeliveries(
  deps: Deps,
  caller: Caller,
  query: ListDeliveriesQuery,
): Promise<PageResult<WebhookDelivery>> {
  const { filters, page } = splitPageQuery(query);
  const where = ["platform_id = $1"];
  const params: unknown[] = [caller.platformId];
  if (filters.eventId) where.push(`event_id = $${params.push(filters.eventId)}`);
  if (filters.state) where.push(`state = $${params.push(filters.state)}`);
  const types = eventTypesOf(filters.type);
  // The event's type, through the platform's events of those types (webhook_events_platform_type_idx).
  if (types)
    where.push(
      `event_id IN (SELECT id FROM webhook_events WHERE platform_id = $1 AND type = ANY($${params.push(types)}::text[]))`,
    );
  const scope = `webhook-deliveries|${caller.platformId}|${filters.eventId ?? ""}|${filters.state ?? ""}${types ? `|${types.join(",")}` : ""}`;
  const result = await listPage<DeliveryRow>({
    executor: deps.db,
    table: "webhook_deliveries",
    where,
    params,
    ...page,
    scope,
  });
  return { ...result, data: await toDeliveries(deps, result.data) };
}

async function findDelivery(deps: Deps, caller: Caller, id: string): Promise<DeliveryRow> {
  const [row] = await deps.db.query<DeliveryRow>(
    "SELECT * FROM webhook_deliveries WHERE id = $1 AND platform_id = $2",
    [id, caller.platformId],
  );
  if (!row) throw new ApiError("NOT_FOUND", { reason: "The webhook delivery does not exist." });
  return row;
}

/** `GET /webhooks/deliveries/{id}`. */
export async function getDelivery(deps: Deps, caller: Caller, id: string): Promise<WebhookDelivery> {
  const [delivery] = await toDeliveries(deps, [await findDelivery(deps, caller, id)]);
  if (!delivery) throw new ApiError("NOT_FOUND");
  return delivery;
}

function endpointNotSet(): ApiError {
  return new ApiError("WEBHOOK_ENDPOINT_NOT_SET", {
    reason: "No webhook endpoint is configured for this platform; set one with PATCH /config.",
  });
}

/** `POST /webhooks/deliveries/{id}/resend`: a new delivery of the same event (same id and bytes). */
export async function resendDelivery(deps: Deps, caller: Caller, id: string): Promise<WebhookDelivery> {
  const original = await findDelivery(deps, caller, id);
  const now = nowFor(deps, caller);
  const created = await deps.db.transaction((tx) =>
    addDelivery(tx, { id: original.event_id, platformId: caller.platformId, now }, { schedule: true }),
  );
  if (!created.endpoint) throw endpointNotSet();
  return getDelivery(deps, caller, created.deliveryId);
}

/** `POST /sandbox/webhooks/test`: sends one TEST event now and reports the receiver's answer (§7.3). */
export async function sendTestEvent(deps: Deps, caller: Caller): Promise<WebhookTestResult> {
  const now = nowFor(deps, caller);
  const deliveryId = await deps.db.transaction(async (tx) => {
    const [platform] = await tx.query<{ webhook_endpoint: string | null }>(
      "SELECT webhook_endpoint FROM platforms WHERE id = $1",
      [caller.platformId],
    );
    if (!platform?.webhook_endpoint) throw endpointNotSet();
    const { deliveryId } = await enqueueUnscheduledEvent(tx, {
      platformId: caller.platformId,
      type: "TEST",
      data: {},
      now,
    });
    return deliveryId;
  });
  const delivery = deliveryId ? await loadDelivery(deps.db, deliveryId) : undefined;
  const url = delivery?.webhook_endpoint;
  if (!delivery || !url || delivery.state !== "PENDING") throw endpointNotSet();
  const { result } = await attemptDelivery(deps, { ...delivery, webhook_endpoint: url });
  if (!result.ok)
    throw new ApiError("WEBHOOK_DELIVERY_ERROR", {
      reason: `The webhook endpoint gave no HTTP response (${result.error}).`,
    });
  return { url, response_status: result.status, ...(result.body ? { response_body: result.body } : {}) };
}
