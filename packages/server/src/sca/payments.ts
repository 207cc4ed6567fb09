import type { Tx } from "../core/db/db.js";
import type { Deps } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { executeQuote } from "../payments/execute.js";
import { insertPayment, paymentFromQuote } from "../payments/lifecycle.js";
import type { ExecutionGate } from "../quotes/execution-gate.js";
import { toQuote } from "../quotes/quotes.js";
import type { Quote } from "../quotes/schemas.js";
import * as quotes from "../quotes/store.js";
import { answerChallenge } from "./challenges.js";
import type { CompleteBody } from "./schemas.js";
import { answerFor, challengeFactor } from "./sessions.js";
import type * as store from "./store.js";

/** `POST /sca/payments/complete`: answers a payment challenge and executes the held quote. */
export async function completePayment(
  deps: Deps,
  caller: Caller,
  body: CompleteBody,
  gates: readonly ExecutionGate[],
): Promise<Quote> {
  const factor = await challengeFactor(deps, caller, body.requestId);
  const answer = answerFor(caller, body, factor);
  return answerChallenge(
    deps,
    caller,
    {
      rawId: body.requestId,
      purposes: ["PAYMENT"],
      answer,
      field: factor === "OTP" ? "code" : "assertion",
      onExpired: failPayment,
    },
    async (tx, challenge, now) => {
      const quote = await quotes.lockQuote(tx, caller.platformId, challenge.subject_id ?? "");
      if (quote?.status !== "PENDING_AUTHORIZATION")
        throw new ApiError("CONFLICT", { reason: `Quote ${challenge.subject_id} is not waiting for SCA.` });
      return toQuote(await executeQuote(tx, { deps, caller, now, gates }, quote), now);
    },
  );
}

/**
 * A payment challenge expired unanswered: the held quote ends FAILED with one FAILED OUTGOING transaction
 * (failure reason `SCA_NOT_COMPLETED`, nothing debited) and its start event. A quote no longer
 * held (answered, or already failed) is left alone, so running twice changes nothing.
 */
export async function failPayment(tx: Tx, challenge: store.ChallengeRow, now: Date): Promise<void> {
  const quote = await quotes.lockQuote(tx, challenge.platform_id, challenge.subject_id ?? "");
  if (quote?.status !== "PENDING_AUTHORIZATION") return;
  await insertPayment(tx, paymentFromQuote(quote, "FAILED", { failure_reason: "SCA_NOT_COMPLETED", now }));
  await quotes.updateQuoteStatus(tx, quote.id, { status: "FAILED", now });
}
