import type { Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { money } from "../core/money.js";
import { postBalanceChanges } from "../ledger/ledger.js";
import { recordRefund, transitionPayment } from "./lifecycle.js";
import { lockPaymentOrThrow } from "./lookup.js";
import type { TransactionRow } from "./store.js";

export interface Refund {
  transactionId: string;
  reference: string;
  amount: ReturnType<typeof money>;
  status: "PENDING" | "COMPLETED" | "FAILED";
  reason?: string;
  initiatedAt: string;
  settledAt?: string;
}

/** A refund's step: COMPLETED moves the payment to REFUNDED; PENDING and FAILED leave its status. */
function saveRefund(tx: Tx, row: TransactionRow, refund: Refund, now: Date): Promise<TransactionRow> {
  if (refund.status === "COMPLETED")
    return transitionPayment(tx, row, "REFUNDED", { details: { ...row.details, refund }, now }, refund);
  return recordRefund(tx, row, refund, refund, now);
}

/**
 * Sandbox refund of a completed incoming payment: the refund debits the account at once
 * (INCOMING_PAYMENT.REFUND_PENDING), then settles (REFUND_COMPLETED, transaction REFUNDED) or fails
 * (REFUND_FAILED, a second change gives the money back). Each step is its own database transaction.
 */
export async function refundIncoming(
  deps: Deps,
  caller: Caller,
  rawTransactionId: string,
  outcome: "COMPLETED" | "FAILED",
): Promise<Refund> {
  const pending = await deps.db.transaction(async (tx) => {
    const row = await lockPaymentOrThrow(tx, caller, rawTransactionId);
    if (
      row.type !== "INCOMING" ||
      row.status !== "COMPLETED" ||
      row.received_amount === null ||
      row.details.refund
    ) {
      throw new ApiError("CONFLICT", {
        reason: `Transaction ${row.id} is not a completed incoming payment without a refund.`,
      });
    }
    const now = nowFor(deps, caller);
    await postBalanceChanges(tx, {
      platformId: caller.platformId,
      now,
      postings: [{ accountId: row.account_id, amount: -row.received_amount, transactionId: row.id }],
    });
    const refund: Refund = {
      transactionId: row.id,
      reference: `RF-${row.id.slice(-12).toUpperCase()}`,
      amount: money(row.received_amount, row.currency),
      status: "PENDING",
      reason: "MANUAL_REFUND",
      initiatedAt: now.toISOString(),
    };
    await saveRefund(tx, row, refund, now);
    return refund;
  });
  return deps.db.transaction(async (tx) => {
    const row = await lockPaymentOrThrow(tx, caller, pending.transactionId);
    const now = nowFor(deps, caller);
    if (outcome === "FAILED") {
      await postBalanceChanges(tx, {
        platformId: caller.platformId,
        now,
        postings: [{ accountId: row.account_id, amount: pending.amount.amount, transactionId: row.id }],
      });
    }
    const settled: Refund = { ...pending, status: outcome, settledAt: now.toISOString() };
    await saveRefund(tx, row, settled, now);
    return settled;
  });
}
