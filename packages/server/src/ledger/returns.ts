import { type Deps, nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { parseId } from "../core/ids.js";
import { findTransaction, type TransactionRow, updateTransaction } from "../transactions/store.js";
import { type Transaction, toTransaction } from "../transactions/transactions.js";
import { enqueueEvent } from "../webhooks/outbox.js";
import { postBalanceChanges } from "./ledger.js";

async function lockTransaction(
  tx: Parameters<typeof findTransaction>[0],
  caller: Caller,
  rawId: string,
): Promise<TransactionRow> {
  const id = parseId("Transaction", rawId);
  const row = id ? await findTransaction(tx, caller.platformId, id, true) : undefined;
  if (!row) throw new ApiError("TRANSACTION_NOT_FOUND", { reason: `No transaction ${rawId}.` });
  return row;
}

/**
 * Sandbox ACH return of a settled ACH deposit: a second balance change (−amount) on the same
 * transaction, which becomes FAILED with PAYOUT_RETURNED. The money may already be spent, so the
 * return may take the balance below zero, as a real return would.
 */
export async function returnAchDeposit(
  deps: Deps,
  caller: Caller,
  rawTransactionId: string,
): Promise<Transaction> {
  return deps.db.transaction(async (tx) => {
    const row = await lockTransaction(tx, caller, rawTransactionId);
    if (
      row.type !== "INCOMING" ||
      row.payment_rail !== "ACH" ||
      row.status !== "COMPLETED" ||
      row.received_amount === null
    ) {
      throw new ApiError("CONFLICT", {
        reason: `Transaction ${row.id} is not a settled ACH deposit that can be returned.`,
      });
    }
    const now = nowFor(deps, caller);
    await postBalanceChanges(tx, {
      platformId: caller.platformId,
      now,
      postings: [{ accountId: row.account_id, amount: -row.received_amount, transactionId: row.id }],
      allowOverdraft: true,
    });
    const returned: TransactionRow = {
      ...row,
      status: "FAILED",
      failure_reason: "PAYOUT_RETURNED",
      updated_at: now,
    };
    await updateTransaction(tx, returned);
    await enqueueEvent(tx, {
      platformId: caller.platformId,
      type: "INCOMING_PAYMENT.FAILED",
      data: toTransaction(returned),
      now,
    });
    return toTransaction(returned);
  });
}
