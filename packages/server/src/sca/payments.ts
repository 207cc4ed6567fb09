import type { Tx } from "../core/db/db.js";
import { type Deps, walletVerificationThreshold } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { scheduleJob } from "../core/jobs/jobs.js";
import { toQuote } from "../quotes/quotes.js";
import type { Quote } from "../quotes/schemas.js";
import { settleQuote } from "../quotes/settle.js";
import * as quotes from "../quotes/store.js";
import { insertTransaction, type TransactionRow } from "../transactions/store.js";
import { toTransaction } from "../transactions/transactions.js";
import { enqueueEvent } from "../webhooks/outbox.js";
import { answerChallenge, issueChallenge, requireUnlocked, toScaChallenge } from "./challenges.js";
import { needsPaymentChallenge, scaCustomerOf } from "./gate.js";
import { findLivePasskey } from "./passkey-store.js";
import type { CompleteBody } from "./schemas.js";
import { answerFor, challengeFactor, requireLiveSession } from "./sessions.js";
import * as store from "./store.js";

/** Job kind: a payment challenge reached its `expiresAt` (fails the payment unless it was answered). */
export const PAYMENT_CHALLENGE_EXPIRY = "sca.payment-challenge-expiry";

/**
 * Called by `POST /quotes/{id}/execute` before settling: for a payout that needs a payment challenge the
 * quote moves to PENDING_AUTHORIZATION with `scaChallenge` (factor `scaFactor`, OTP by default) and no
 * money moves; answering it (`POST /sca/payments/complete`) settles, expiry fails it with
 * `SCA_NOT_COMPLETED`. Returns undefined when the execution goes ahead now.
 */
export async function holdForScaChallenge(
  deps: Deps,
  tx: Tx,
  caller: Caller,
  quote: quotes.QuoteRow,
  now: Date,
  scaFactor: string | undefined,
): Promise<quotes.QuoteRow | undefined> {
  const customer = await scaCustomerOf(tx, caller, quote);
  if (!customer) return undefined;
  await requireLiveSession(tx, customer.id, now);
  if (!(await needsPaymentChallenge(tx, quote))) return undefined;
  requireUnlocked(await store.lockScaCustomer(tx, caller.platformId, customer.id, now), now);
  const factor = scaFactor ?? "OTP";
  if (factor !== "OTP" && factor !== "PASSKEY") throw invalidField("scaFactor", "must be OTP or PASSKEY");
  if (factor === "PASSKEY" && !(await findLivePasskey(tx, customer.id)))
    throw new ApiError("CONFLICT", { reason: `Customer ${customer.id} has no enrolled SCA passkey.` });
  const challenge = await issueChallenge(deps, tx, caller, {
    customer,
    purpose: "PAYMENT",
    factor,
    subjectId: quote.id,
    now,
  });
  await scheduleJob(tx, {
    platformId: caller.platformId,
    kind: PAYMENT_CHALLENGE_EXPIRY,
    payload: { challengeId: challenge.id },
    runAt: challenge.expires_at,
    now,
  });
  const { customerId: _, purpose: __, ...scaChallenge } = toScaChallenge(challenge);
  return store.holdQuote(tx, quote.id, { scaChallenge }, now);
}

/** `POST /sca/payments/complete`: answers a payment challenge and executes the held quote. */
export async function completePayment(deps: Deps, caller: Caller, body: CompleteBody): Promise<Quote> {
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
      return toQuote(await settleQuote(tx, caller, quote, now, walletVerificationThreshold(deps)), now);
    },
  );
}

/**
 * A payment challenge expired unanswered: the held quote ends FAILED with one FAILED OUTGOING transaction
 * (failure reason `SCA_NOT_COMPLETED`, nothing debited) and `OUTGOING_PAYMENT.FAILED`. A quote no longer
 * held (answered, or already failed) is left alone, so running twice changes nothing.
 */
export async function failPayment(tx: Tx, challenge: store.ChallengeRow, now: Date): Promise<void> {
  const quote = await quotes.lockQuote(tx, challenge.platform_id, challenge.subject_id ?? "");
  if (quote?.status !== "PENDING_AUTHORIZATION") return;
  const { description, remittanceInformation, purposeOfPayment } = quote.details;
  const echoed = Object.entries({ remittanceInformation, purposeOfPayment }).filter(
    ([, v]) => v !== undefined,
  );
  const row: TransactionRow = {
    id: quote.transaction_id,
    platform_id: quote.platform_id,
    type: "OUTGOING",
    status: "FAILED",
    account_id: quote.source_account_id ?? "",
    customer_id: quote.customer_id,
    currency: quote.sending_currency,
    sent_amount: quote.total_sending_amount,
    received_amount: quote.total_receiving_amount,
    fees: quote.fees_included,
    platform_fees: quote.platform_fees_included,
    quote_id: quote.id,
    payment_rail: null,
    rail_selection_mode: null,
    failure_reason: "SCA_NOT_COMPLETED",
    pending_reason: null,
    description: typeof description === "string" ? description : null,
    reference: null,
    source: { sourceType: "ACCOUNT", accountId: quote.source_account_id },
    destination: { destinationType: "ACCOUNT", accountId: quote.destination_account_id },
    details: { exchangeRate: quote.exchange_rate, ...Object.fromEntries(echoed) },
    settled_at: null,
    created_at: now,
    updated_at: now,
  };
  await insertTransaction(tx, row);
  await quotes.updateQuoteStatus(tx, quote.id, { status: "FAILED", transactionId: row.id, now });
  await enqueueEvent(tx, {
    platformId: quote.platform_id,
    type: "OUTGOING_PAYMENT.FAILED",
    data: toTransaction(row),
    now,
  });
}
