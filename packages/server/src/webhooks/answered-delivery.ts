import type { Deps, WebhookTimeouts } from "../core/deps.js";
import { scheduleJob } from "../core/jobs/jobs.js";
import { attemptDelivery, isDelivered, leaseDelivery, loadDelivery } from "./delivery.js";
import { DELIVER_JOB } from "./outbox.js";
import type { SendResult } from "./sender.js";

/**
 * Sends an event's delivery at once and hands back the platform's answer, for events whose answer decides
 * something (a UMA pay request waits on the platform's answer to the incoming payment's pending event). A status in
 * `answers` ends the delivery like a 2xx does: the platform answered on purpose. Anything else is retried
 * on the usual schedule. Undefined when the platform has no endpoint (the delivery is UNDELIVERABLE).
 */
export async function deliverNow(
  deps: Deps,
  deliveryId: string,
  answers: readonly number[],
  timeouts: WebhookTimeouts,
): Promise<SendResult | undefined> {
  const delivery = await loadDelivery(deps.db, deliveryId);
  const endpoint = delivery?.webhook_endpoint;
  if (!delivery || !endpoint || delivery.state !== "PENDING") return undefined;
  if (!(await leaseDelivery(deps, deliveryId, timeouts))) return undefined;
  const delivered = (result: SendResult) =>
    isDelivered(result) || (result.ok && answers.includes(result.status));
  const { result } = await attemptDelivery(
    deps,
    { ...delivery, webhook_endpoint: endpoint },
    async (tx, outcome) => {
      if (outcome.state !== "PENDING") return;
      const payload = { deliveryId };
      const now = deps.clock.now();
      await scheduleJob(tx, {
        platformId: delivery.platform_id,
        kind: DELIVER_JOB,
        payload,
        runAt: outcome.nextAt,
        now,
      });
    },
    { delivered, timeouts },
  );
  return result;
}
