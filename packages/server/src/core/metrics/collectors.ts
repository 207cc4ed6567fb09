import { Gauge, type Registry } from "prom-client";
import type { Db } from "../db/db.js";

/** The queue label of webhook deliveries, which are their own jobs (webhooks/dispatcher.ts). */
const WEBHOOK_QUEUE = "webhook_delivery";

/**
 * Gauges read when scraped: the database's connections, then the job queues' depth. The pool gauges are
 * registered first and read synchronously, so they show the pool as it was before the scrape's own query.
 * Counting pending rows uses the partial and (state, run_at) indexes, and reads no platform column.
 */
export function registerDatabaseCollectors(registry: Registry, db: Db): void {
  const stats = () => db.poolStats?.();
  new Gauge({
    name: "paysvc_db_pool_size",
    help: "Database connections the process may open (PostgreSQL: PAYSVC_DB_POOL_SIZE; PGlite: one session).",
    registers: [registry],
    collect() {
      const now = stats();
      if (now) this.set(now.size);
    },
  });
  new Gauge({
    name: "paysvc_db_pool_connections",
    help: "Open database connections by state (in_use, idle).",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      const now = stats();
      if (!now) return;
      this.set({ state: "in_use" }, now.inUse);
      this.set({ state: "idle" }, now.idle);
    },
  });
  new Gauge({
    name: "paysvc_db_pool_waiting",
    help: "Database calls waiting for a connection (PGlite: for its one session).",
    registers: [registry],
    collect() {
      const now = stats();
      if (now) this.set(now.waiting);
    },
  });
  const seen = new Set<string>([WEBHOOK_QUEUE]);
  new Gauge({
    name: "paysvc_job_queue_depth",
    help: "Background work not done yet (due or scheduled), by queue: the job kind, or webhook_delivery.",
    labelNames: ["queue"] as const,
    registers: [registry],
    async collect() {
      const depth = await queueDepths(db);
      for (const queue of depth.keys()) seen.add(queue);
      // A queue seen once stays as 0 when it empties, so a query on it does not go blank.
      for (const queue of seen) this.set({ queue }, depth.get(queue) ?? 0);
    },
  });
}

/** Pending jobs by kind, and pending webhook deliveries. */
async function queueDepths(db: Db): Promise<Map<string, number>> {
  const rows = await db.query<{ queue: string; depth: number }>(
    `SELECT kind AS queue, count(*)::int AS depth FROM jobs WHERE state = 'PENDING' GROUP BY kind
     UNION ALL
     SELECT '${WEBHOOK_QUEUE}', count(*)::int FROM webhook_deliveries WHERE state = 'PENDING'`,
  );
  return new Map(rows.map((row) => [row.queue, row.depth]));
}
