import type { Deps } from "../core/deps.js";
import { type LoadedDelivery, leaseUntil } from "./delivery.js";
import { DEFAULT_WEBHOOK_TIMEOUTS } from "./sender.js";

export interface ClaimedDelivery extends LoadedDelivery {
  lease: Date;
}

/**
 * Leases up to `limit` due deliveries, the oldest first but at most each platform's room, with what
 * sending them needs. Platforms with a PENDING delivery are found by a loose scan of the due index (one
 * probe per platform), and each gives at most its room of its oldest due rows: a platform whose receiver
 * hangs, with no room left, costs nothing and holds no one back however long its backlog. The chosen
 * rows are then locked FOR UPDATE SKIP LOCKED, which checks them again on their latest version, so
 * concurrent dispatchers never lease the same row; the lease keeps them off it until recorded.
 */
export async function claimDue(
  deps: Deps,
  claim: {
    limit: number;
    /** Sends each platform may start; a platform not named may start `defaultRoom`. */
    rooms: ReadonlyMap<string, number>;
    defaultRoom: number;
    scope: ReadonlySet<string> | undefined;
  },
): Promise<ClaimedDelivery[]> {
  if (claim.scope?.size === 0) return [];
  const now = deps.clock.now();
  const lease = leaseUntil(now, deps.webhookTimeouts ?? DEFAULT_WEBHOOK_TIMEOUTS);
  const rooms = [...claim.rooms];
  const params: unknown[] = [
    now,
    lease,
    claim.limit,
    claim.defaultRoom,
    rooms.map(([platformId]) => platformId),
    rooms.map(([, room]) => room),
  ];
  const scoped = claim.scope ? `WHERE a.platform_id = ANY($${params.push([...claim.scope])}::text[])` : "";
  const rows = await deps.db.query<ClaimedDelivery>(
    `WITH RECURSIVE active AS (
       (SELECT platform_id FROM webhook_deliveries WHERE state = 'PENDING' ORDER BY platform_id LIMIT 1)
       UNION ALL
       SELECT (SELECT d.platform_id FROM webhook_deliveries d
               WHERE d.state = 'PENDING' AND d.platform_id > a.platform_id ORDER BY d.platform_id LIMIT 1)
       FROM active a WHERE a.platform_id IS NOT NULL),
     candidates AS MATERIALIZED (
       SELECT due.id FROM active a
       JOIN platforms p ON p.id = a.platform_id
       LEFT JOIN unnest($5::text[], $6::int[]) AS b(platform_id, room) ON b.platform_id = a.platform_id
       CROSS JOIN LATERAL (
         SELECT d.id, d.next_attempt_at FROM webhook_deliveries d
         WHERE d.platform_id = a.platform_id AND d.state = 'PENDING'
           AND d.next_attempt_at <= $1::timestamptz + p.clock_offset_ms * interval '1 millisecond'
           AND (d.locked_until IS NULL OR d.locked_until < $1)
         ORDER BY d.next_attempt_at LIMIT COALESCE(b.room, $4)) due
       ${scoped}
       ORDER BY due.next_attempt_at LIMIT $3),
     locked AS (
       SELECT d.id FROM webhook_deliveries d
       WHERE d.id = ANY(ARRAY(SELECT id FROM candidates)) AND d.state = 'PENDING'
         AND (d.locked_until IS NULL OR d.locked_until < $1)
       FOR UPDATE SKIP LOCKED)
     UPDATE webhook_deliveries d SET locked_until = $2
     FROM locked l, webhook_events e, platforms p
     WHERE d.id = l.id AND e.id = d.event_id AND p.id = d.platform_id
     RETURNING d.id, d.event_id, d.platform_id, d.state, d.attempts, d.first_attempt_at,
       e.body, e.type, p.webhook_endpoint, p.clock_offset_ms, p.environment`,
    params,
  );
  return rows.map((row) => ({ ...row, lease }));
}
