import type { Deps, WebhookTimeouts } from "../core/deps.js";
import { attemptDelivery, isDelivered, leaseDelivery, loadDelivery } from "./delivery.js";
import type { SendResult } from "./sender.js";

/**
 * Sends an event's delivery at once and hands back the platform's answer, for events whose answer decides
 * something (a UMA pay request waits on the platform's answer to the incoming payment's pending event). A status in
 * `answers` ends the delivery like a 2xx does: the platform answered on purpose. Anything else is retried
 * on the usual schedule (the dispatcher sends it at its next attempt). Undefined when the platform has no
 * endpoint (the delivery is UNDELIVERABLE).
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
  const lease = await leaseDelivery(deps, deliveryId, timeouts);
  if (!lease) return undefined;
  const delivered = (result: SendResult) =>
    isDelivered(result) || (result.ok && answers.includes(result.status));
  const { result } = await attemptDelivery(
    deps,
    { ...delivery, webhook_endpoint: endpoint },
    { delivered, timeouts, lease },
  );
  return result;
}
