import type { JobHandler } from "../core/jobs/jobs.js";
import { attemptDelivery, leaseDelivery, loadDelivery, markUndeliverable } from "./delivery.js";
import { DELIVER_JOB } from "./outbox.js";
import { DEFAULT_WEBHOOK_TIMEOUTS } from "./sender.js";

/**
 * Delivers one webhook_deliveries row. Jobs are claimed FOR UPDATE SKIP LOCKED, and the delivery's
 * own lease (leaseDelivery) covers the case of a job lease that ran out while its batch was sending.
 */
const deliver: JobHandler = async ({ deps, job, finish, reschedule }) => {
  const id = String(job.payload.deliveryId);
  const leased = await leaseDelivery(deps, id, deps.webhookTimeouts ?? DEFAULT_WEBHOOK_TIMEOUTS);
  // Loaded after the lease, so the attempt count is the one the last sender recorded.
  const delivery = await loadDelivery(deps.db, id);
  if (delivery?.state !== "PENDING") return deps.db.transaction(finish);
  // Another runner is sending it (its job lease ran out mid-batch); that runner finishes the job.
  if (!leased) return;
  const endpoint = delivery.webhook_endpoint;
  if (!endpoint) {
    const now = new Date(deps.clock.now().getTime() + delivery.clock_offset_ms);
    return deps.db.transaction(async (tx) => {
      await markUndeliverable(tx, delivery.id, now);
      await finish(tx);
    });
  }
  await attemptDelivery(deps, { ...delivery, webhook_endpoint: endpoint }, (tx, outcome) =>
    outcome.state === "PENDING" ? reschedule(tx, outcome.nextAt) : finish(tx),
  );
};

/** Job kinds of the webhooks area. */
export function webhookJobHandlers(): Record<string, JobHandler> {
  return { [DELIVER_JOB]: deliver };
}
