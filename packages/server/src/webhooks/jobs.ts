import { type JobHandler, withQueue } from "../core/jobs/jobs.js";
import { deliveryQueue } from "./dispatcher.js";
import { DELIVER_JOB } from "./outbox.js";

/**
 * A delivery job from before a delivery row became its own job: the row is due by itself now, so the
 * dispatcher sends it; the job only ends. It carries the delivery queue to every runner.
 */
const finishLegacyDeliveryJob = withQueue(async ({ deps, finish }) => {
  await deps.db.transaction(finish);
}, deliveryQueue);

/** Job kinds of the webhooks area (and its delivery queue, webhooks/dispatcher.ts). */
export function webhookJobHandlers(): Record<string, JobHandler> {
  return { [DELIVER_JOB]: finishLegacyDeliveryJob };
}
