import { type Deps, nowFor } from "../core/deps.js";
import { failUmaIncoming, type IncomingRefusal } from "../payments/uma-payments.js";
import type { PlatformRow } from "../platform/store.js";
import { deliverNow } from "../webhooks/answered-delivery.js";
import type { SendResult } from "../webhooks/sender.js";
import { type ProtocolAnswer, umaErrorAnswer } from "./receive.js";

// The platform approves each incoming UMA payment, as on the hosted API: its answer to the payment's
// pending event (payments' start event of a PENDING incoming payment) decides the pay request (docs/guides/uma.md "Approving incoming payments").
// 2xx (or 409, already processed) accepts; 403 refuses the sender; 422 asks for payer data the sender did not
// give; no answer fails the payment. A platform without a webhook endpoint accepts every payment.

/** The sender's VASP waits 5 s for the pay request's answer; the platform's answer must come well before. */
const APPROVAL_TIMEOUTS = { connectTimeoutMs: 2_000, totalTimeoutMs: 3_000 };

const FORBIDDEN = 403;
const UNPROCESSABLE = 422;

function answerBody(text: string): { reason?: unknown; message?: unknown; requiredFields?: unknown } {
  try {
    const body = JSON.parse(text) as unknown;
    return typeof body === "object" && body !== null ? body : {};
  } catch {
    return {};
  }
}

/** What a refusal does: the payment's failure reason and the sender's UMA error. */
function refusalOf(answer: SendResult): { reason: IncomingRefusal; protocol: ProtocolAnswer } {
  if (answer.ok && answer.status === FORBIDDEN) {
    const body = answerBody(answer.body);
    const why =
      typeof body.reason === "string" ? body.reason : typeof body.message === "string" ? body.message : "";
    return {
      reason: "COMPLIANCE_REJECTED",
      protocol: umaErrorAnswer(
        400,
        "SENDER_NOT_ACCEPTED",
        `The receiver does not accept this sender${why ? ` (${why})` : ""}.`,
      ),
    };
  }
  if (answer.ok && answer.status === UNPROCESSABLE) {
    const { requiredFields } = answerBody(answer.body);
    const fields = Array.isArray(requiredFields) ? requiredFields.filter((f) => typeof f === "string") : [];
    return {
      reason: "COMPLIANCE_REJECTED",
      protocol: umaErrorAnswer(
        400,
        "MISSING_MANDATORY_PAYER_DATA",
        `The receiver requires more about the payer${fields.length > 0 ? `: ${fields.join(", ")}` : ""}.`,
        { requiredFields: fields },
      ),
    };
  }
  const timedOut = !answer.ok && answer.error === "TIMEOUT";
  return {
    reason: timedOut ? "PAYMENT_APPROVAL_TIMED_OUT" : "PAYMENT_APPROVAL_WEBHOOK_ERROR",
    protocol: umaErrorAnswer(500, "INTERNAL_ERROR", "The receiver's platform did not approve the payment."),
  };
}

const accepts = (answer: SendResult) =>
  answer.ok && ((answer.status >= 200 && answer.status < 300) || answer.status === 409);

/**
 * Delivers the pending payment's start event now and reads the platform's answer: undefined
 * when the payment may go on; otherwise the payment is FAILED and the answer is the sender's UMA error.
 */
export async function askPlatform(
  deps: Deps,
  platform: PlatformRow,
  transactionId: string,
  deliveryId: string,
): Promise<ProtocolAnswer | undefined> {
  const configured = deps.webhookTimeouts ?? APPROVAL_TIMEOUTS;
  const timeouts = {
    connectTimeoutMs: Math.min(configured.connectTimeoutMs, APPROVAL_TIMEOUTS.connectTimeoutMs),
    totalTimeoutMs: Math.min(configured.totalTimeoutMs, APPROVAL_TIMEOUTS.totalTimeoutMs),
  };
  const answer = await deliverNow(deps, deliveryId, [FORBIDDEN, UNPROCESSABLE], timeouts);
  if (answer === undefined || accepts(answer)) return undefined;
  const refusal = refusalOf(answer);
  const now = nowFor(deps, { clockOffsetMs: platform.clock_offset_ms });
  await deps.db.transaction((tx) => failUmaIncoming(tx, platform.id, transactionId, refusal.reason, now));
  return refusal.protocol;
}
