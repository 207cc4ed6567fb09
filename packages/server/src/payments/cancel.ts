import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import * as quotes from "../quotes/store.js";
import { recordDetails, transitionPayment } from "./lifecycle.js";
import { lockPaymentOrThrow } from "./lookup.js";
import { failPayout } from "./payout-jobs.js";
import type { TransactionRow } from "./store.js";
import { type Transaction, toTransaction } from "./wire.js";

const notCancellable = (row: TransactionRow) =>
  new ApiError("TRANSACTION_NOT_CANCELLABLE", {
    reason: `Transaction ${row.id} is a ${row.status} ${row.type} payment; only a quote's outgoing payment that has not settled (PENDING or PROCESSING) can be cancelled.`,
  });

/**
 * `POST /transactions/{transactionId}/cancel {reason?}`: stops a quote's outgoing payment before it
 * settles. PROCESSING (the debit made, the payout not delivered) → FAILED `QUOTE_EXECUTION_FAILED`, the
 * debit refunded at once (refund reason `USER_CANCELLATION`), as a payout the bank cancels (conventions
 * §3.6, 006); PENDING (an agent payment awaiting approval, nothing debited) → FAILED. The quote fails with
 * it, and the payout's pending settlement finds it FAILED and does nothing. Anything else — settled,
 * failed, expired, incoming, a stablecoin operation's leg — is `409 TRANSACTION_NOT_CANCELLABLE`.
 */
export async function cancelTransaction(deps: Deps, caller: Caller, rawId: string): Promise<Transaction> {
  return deps.db.transaction(async (tx) => {
    const row = await lockPaymentOrThrow(tx, caller, rawId);
    if (row.type !== "OUTGOING" || row.quote_id === null) throw notCancellable(row);
    const now = nowFor(deps, caller);
    let cancelled: TransactionRow;
    if (row.status === "PROCESSING") {
      const failure = {
        reason: "QUOTE_EXECUTION_FAILED",
        refundReason: "USER_CANCELLATION",
        refundFails: false,
      };
      cancelled = await failPayout(tx, row, failure, now);
    } else if (row.status === "PENDING") {
      cancelled = await transitionPayment(tx, row, "FAILED", {
        failure_reason: "QUOTE_EXECUTION_FAILED",
        pending_reason: null,
        now,
      });
      await quotes.updateQuoteStatus(tx, row.quote_id, { status: "FAILED", now });
    } else {
      throw notCancellable(row);
    }
    return toTransaction(cancelled);
  });
}

/**
 * `POST /transactions/{transactionId}/confirm {receiptDeliveryConfirmedAt?}`: records when the platform
 * delivered the payment's receipt to its customer (Regulation E remittance receipts), now by default. The
 * first confirmation is kept, as for statement receipts; it changes no status and fires no event.
 */
export async function confirmReceiptDelivery(
  deps: Deps,
  caller: Caller,
  rawId: string,
  at: string | undefined,
): Promise<Transaction> {
  return deps.db.transaction(async (tx) => {
    const row = await lockPaymentOrThrow(tx, caller, rawId);
    const now = nowFor(deps, caller);
    const confirmedAt = at === undefined ? now : new Date(at);
    if (confirmedAt.getTime() > now.getTime())
      throw invalidField("receiptDeliveryConfirmedAt", "must not be in the future");
    if (typeof row.details.receiptDeliveryConfirmedAt === "string") return toTransaction(row);
    const details = { ...row.details, receiptDeliveryConfirmedAt: confirmedAt.toISOString() };
    return toTransaction(await recordDetails(tx, row, details, now));
  });
}
