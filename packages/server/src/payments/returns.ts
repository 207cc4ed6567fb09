import type { Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { postBalanceChanges } from "../ledger/ledger.js";
import { transitionPayment } from "./lifecycle.js";
import { lockPaymentOrThrow } from "./lookup.js";
import type { TransactionRow } from "./store.js";
import { type Transaction, toTransaction } from "./wire.js";

/**
 * A settled incoming payment returned by the sending bank: a second balance change (−amount) on the same
 * transaction, which becomes FAILED with PAYOUT_RETURNED. The money may already be spent, so the return
 * may take the balance below zero, as a real return would. The row is locked and COMPLETED.
 */
export async function returnIncoming(tx: Tx, row: TransactionRow, now: Date): Promise<TransactionRow> {
  await postBalanceChanges(tx, {
    platformId: row.platform_id,
    now,
    postings: [{ accountId: row.account_id, amount: -(row.received_amount ?? 0), transactionId: row.id }],
    allowOverdraft: true,
  });
  return transitionPayment(tx, row, "FAILED", { failure_reason: "PAYOUT_RETURNED", now });
}

/** Sandbox ACH return of a settled ACH deposit (returnIncoming). */
export async function returnAchDeposit(
  deps: Deps,
  caller: Caller,
  rawTransactionId: string,
): Promise<Transaction> {
  return deps.db.transaction(async (tx) => {
    const row = await lockPaymentOrThrow(tx, caller, rawTransactionId);
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
    return toTransaction(await returnIncoming(tx, row, nowFor(deps, caller)));
  });
}
