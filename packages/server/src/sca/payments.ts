import type { Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { parseId } from "../core/ids.js";
import { findCustomer } from "../customers/store.js";
import { executeQuote } from "../payments/execute.js";
import { insertPayment, paymentFromQuote } from "../payments/lifecycle.js";
import type { ExecutionGate } from "../quotes/execution-gate.js";
import { toQuote } from "../quotes/quotes.js";
import type { Quote } from "../quotes/schemas.js";
import * as quotes from "../quotes/store.js";
import { answerChallenge, issueChallenge, requireUnlocked } from "./challenges.js";
import { holdWith } from "./payment-hold.js";
import type { ScaAuthorization } from "./schemas.js";
import { answerField, answerFor } from "./sessions.js";
import * as store from "./store.js";

/** A new code for the same payment is refused this soon after the last one (`429 RATE_LIMITED`). */
export const RESEND_INTERVAL_MS = 30 * 1000;

const noQuote = (rawId: string) => new ApiError("QUOTE_NOT_FOUND", { reason: `No quote ${rawId}.` });

/**
 * The quote held in PENDING_AUTHORIZATION and its open payment challenge, locked: `404 QUOTE_NOT_FOUND`
 * for unknown or foreign quotes, `409 CONFLICT` for a quote not waiting for authorization.
 */
async function heldQuote(tx: Tx, caller: Caller, rawId: string) {
  const id = parseId("Quote", rawId);
  const quote = id ? await quotes.lockQuote(tx, caller.platformId, id) : undefined;
  if (!quote) throw noQuote(rawId);
  const challenge = await store.latestOpenChallenge(tx, quote.customer_id ?? "", "PAYMENT", quote.id);
  if (quote.status !== "PENDING_AUTHORIZATION" || !challenge)
    throw new ApiError("CONFLICT", {
      reason: `Quote ${quote.id} is ${quote.status}, not waiting for SCA authorization.`,
    });
  return { quote, challenge };
}

/**
 * `POST /quotes/{quoteId}/authorize` (`authorizeQuote`): answers the held quote's `scaChallenge` (`code`,
 * or `passkeyAssertion` with `origin`) and executes it. Wrong answers count towards the customer's lock
 * (`423 ACCOUNT_LOCKED`); an expired challenge is `409 CONFLICT` and the payment fails with
 * `SCA_NOT_COMPLETED`.
 */
export async function authorizeQuote(
  deps: Deps,
  caller: Caller,
  rawId: string,
  body: ScaAuthorization,
  gates: readonly ExecutionGate[],
): Promise<Quote> {
  const { challenge: waiting } = await deps.db.transaction((tx) => heldQuote(tx, caller, rawId));
  const answer = answerFor(deps, caller, body, waiting.factor);
  return answerChallenge(
    deps,
    caller,
    {
      rawId: waiting.id,
      purposes: ["PAYMENT"],
      answer,
      field: answerField(waiting.factor),
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
 * `POST /quotes/{quoteId}/authorize/resend` (`resendQuoteScaCode`): a new SMS_OTP code for the held quote,
 * valid 5 minutes; it replaces the quote's `scaChallenge` (new `id`), and the old code no longer works. A
 * PASSKEY challenge has nothing to send (`409 CONFLICT`); a resend within 30 seconds of the last code is
 * `429 RATE_LIMITED`.
 */
export async function resendQuoteCode(deps: Deps, caller: Caller, rawId: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const { quote, challenge } = await heldQuote(tx, caller, rawId);
    if (challenge.factor !== "OTP")
      throw new ApiError("CONFLICT", { reason: `Quote ${quote.id} waits for a passkey, not a code.` });
    const now = nowFor(deps, caller);
    const waitMs = RESEND_INTERVAL_MS - (now.getTime() - challenge.created_at.getTime());
    if (waitMs > 0)
      throw new ApiError("RATE_LIMITED", {
        reason: `A code for quote ${quote.id} was sent less than 30 seconds ago; retry later.`,
        headers: { "retry-after": String(Math.max(1, Math.ceil(waitMs / 1000))) },
      });
    if (now >= challenge.expires_at)
      throw new ApiError("CONFLICT", { reason: `The SCA challenge of quote ${quote.id} expired.` });
    const customer = await findCustomer(tx, caller.platformId, challenge.customer_id);
    if (!customer) throw noQuote(rawId);
    requireUnlocked(await store.lockScaCustomer(tx, caller.platformId, customer.id, now), now);
    const fresh = await issueChallenge(deps, tx, caller, {
      customer,
      purpose: "PAYMENT",
      factor: "OTP",
      subjectId: quote.id,
      now,
    });
    await holdWith(tx, { deps, caller, now }, customer, quote, fresh);
  });
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
