import type { Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { parseId } from "../core/ids.js";
import { money } from "../core/money.js";
import { findTransaction, type TransactionRow, updateTransaction } from "../transactions/store.js";
import { enqueueEvent } from "../webhooks/outbox.js";
import { postBalanceChanges } from "./ledger.js";

export interface Refund {
  transactionId: string;
  reference: string;
  amount: ReturnType<typeof money>;
  status: "PENDING" | "COMPLETED" | "FAILED";
  reason?: string;
  initiatedAt: string;
  settledAt?: string;
}

async function lockIncoming(tx: Tx, caller: Caller, rawId: string): Promise<TransactionRow> {
  const id = parseId("Transaction", rawId);
  const row = id ? await findTransaction(tx, caller.platformId, id, true) : undefined;
  if (!row) throw new ApiError("TRANSACTION_NOT_FOUND", { reason: `No transaction ${rawId}.` });
  return row;
}

async function saveRefund(
  tx: Tx,
  caller: Caller,
  row: TransactionRow,
  refund: Refund,
  now: Date,
): Promise<void> {
  const status = refund.status === "COMPLETED" ? "REFUNDED" : row.status;
  await updateTransaction(tx, { ...row, status, details: { ...row.details, refund }, updated_at: now });
  await enqueueEvent(tx, {
    platformId: caller.platformId,
    type: `INCOMING_PAYMENT.REFUND_${refund.status}`,
    data: refund,
    now,
  });
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
    const row = await lockIncoming(tx, caller, rawTransactionId);
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
    await saveRefund(tx, caller, row, refund, now);
    return refund;
  });
  return deps.db.transaction(async (tx) => {
    const row = await lockIncoming(tx, caller, pending.transactionId);
    const now = nowFor(deps, caller);
    if (outcome === "FAILED") {
      await postBalanceChanges(tx, {
        platformId: caller.platformId,
        now,
        postings: [{ accountId: row.account_id, amount: pending.amount.amount, transactionId: row.id }],
      });
    }
    const settled: Refund = { ...pending, status: outcome, settledAt: now.toISOString() };
    await saveRefund(tx, caller, row, settled, now);
    return settled;
  });
}
