import { type Deps, nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { newId } from "../core/ids.js";
import { findAccountOrThrow, type InternalAccount, toInternalAccount } from "../customers/accounts.js";
import { insertTransaction, type TransactionRow } from "../transactions/store.js";
import { toTransaction } from "../transactions/transactions.js";
import { enqueueEvent } from "../webhooks/outbox.js";
import { postBalanceChanges } from "./ledger.js";

/**
 * Sandbox funding (conventions §3.3): one COMPLETED INCOMING transaction and one balance change, with
 * INTERNAL_ACCOUNT.BALANCE_UPDATED and INCOMING_PAYMENT.COMPLETED, in one transaction.
 */
export async function fundAccount(
  deps: Deps,
  caller: Caller,
  rawAccountId: string,
  amount: number,
): Promise<InternalAccount> {
  return deps.db.transaction(async (tx) => {
    const account = await findAccountOrThrow(tx, caller, rawAccountId);
    if (account.status === "CLOSED" || account.status === "FAILED") {
      throw new ApiError("CONFLICT", {
        reason: `Account ${account.id} is ${account.status} and cannot be funded.`,
      });
    }
    const now = nowFor(deps, caller);
    const row: TransactionRow = {
      id: newId("Transaction"),
      platform_id: caller.platformId,
      type: "INCOMING",
      status: "COMPLETED",
      account_id: account.id,
      customer_id: account.customer_id,
      currency: account.currency,
      sent_amount: amount,
      received_amount: amount,
      fees: 0,
      platform_fees: 0,
      quote_id: null,
      payment_rail: null,
      rail_selection_mode: null,
      failure_reason: null,
      pending_reason: null,
      description: "Sandbox funding",
      reference: null,
      source: { sourceType: "REALTIME_FUNDING", currency: account.currency },
      destination: { destinationType: "ACCOUNT", accountId: account.id },
      details: {},
      settled_at: now,
      created_at: now,
      updated_at: now,
    };
    await insertTransaction(tx, row);
    const { accounts } = await postBalanceChanges(tx, {
      platformId: caller.platformId,
      now,
      postings: [{ accountId: account.id, amount, transactionId: row.id }],
    });
    await enqueueEvent(tx, {
      platformId: caller.platformId,
      type: "INCOMING_PAYMENT.COMPLETED",
      data: toTransaction(row),
      now,
    });
    const updated = accounts.get(account.id);
    if (!updated) throw new Error("posted account missing from the result");
    return toInternalAccount(updated);
  });
}
