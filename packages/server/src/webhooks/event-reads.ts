import type { Deps } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { listPage, type PageResult, splitPageQuery } from "../core/http/pagination.js";
import { eventTypesOf, type ListEventsQuery, type WebhookEvent } from "./event-schemas.js";

interface EventRow {
  [column: string]: unknown;
  id: string;
  body: string;
  created_at: Date;
}

/** The stored envelope, byte for byte what every delivery of the event carries. */
function toEvent(row: EventRow): WebhookEvent {
  return JSON.parse(row.body) as WebhookEvent;
}

/**
 * `GET /events`: the events the caller's platform's work raised, newest first by default, filtered by type
 * and by creation time (both bounds inclusive).
 */
export async function listEvents(
  deps: Deps,
  caller: Caller,
  query: ListEventsQuery,
): Promise<PageResult<WebhookEvent>> {
  const { filters, page } = splitPageQuery(query);
  const types = eventTypesOf(filters.type);
  const where = ["platform_id = $1"];
  const params: unknown[] = [caller.platformId];
  if (types) where.push(`type = ANY($${params.push(types)}::text[])`);
  if (filters.createdAfter) where.push(`created_at >= $${params.push(filters.createdAfter)}::timestamptz`);
  if (filters.createdBefore) where.push(`created_at <= $${params.push(filters.createdBefore)}::timestamptz`);
  const scope = [
    "webhook-events",
    caller.platformId,
    types?.join(",") ?? "",
    filters.createdAfter ?? "",
    filters.createdBefore ?? "",
  ].join("|");
  const result = await listPage<EventRow>({
    executor: deps.db,
    table: "webhook_events",
    where,
    params,
    ...page,
    scope,
  });
  return { ...result, data: result.data.map(toEvent) };
}

/**
 * `GET /events/{id}`. Another platform's event, a malformed id and a missing one get the same 404
 * `NOT_FOUND` (conventions §1.3: `Webhook` ids have no code of their own).
 */
export async function getEvent(deps: Deps, caller: Caller, id: string): Promise<WebhookEvent> {
  const [row] = await deps.db.query<EventRow>(
    "SELECT id, body, created_at FROM webhook_events WHERE id = $1 AND platform_id = $2",
    [id, caller.platformId],
  );
  if (!row) throw new ApiError("NOT_FOUND", { reason: "The event does not exist." });
  return toEvent(row);
}
