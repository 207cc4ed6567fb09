import type { Tx } from "../core/db/db.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { newId, parseId } from "../core/ids.js";
import { findAccountOrThrow } from "../customers/accounts.js";
import type { InternalAccountRow } from "../customers/accounts-store.js";
import { customerNames } from "../customers/store.js";
import { postBalanceChanges } from "../ledger/ledger.js";
import { insertTransaction, type TransactionRow } from "../transactions/store.js";
import { toTransaction } from "../transactions/transactions.js";
import { enqueueEvent } from "../webhooks/outbox.js";
import { runExecutionGates } from "./execution-gates.js";
import { settlePayout } from "./payout-execute.js";
import * as store from "./store.js";

/** Money moves only between ACTIVE accounts; any other status is `409 CONFLICT`. */
export function requireActive(account: InternalAccountRow): void {
  if (account.status !== "ACTIVE") {
    throw new ApiError("CONFLICT", {
      reason: `Account ${account.id} is ${account.status}; only ACTIVE accounts send or receive transfers.`,
    });
  }
}

/** The sender's OUTGOING and the receiver's INCOMING transaction of an internal transfer, linked by quoteId. */
function transferTransactions(
  quote: store.QuoteRow,
  sender: InternalAccountRow,
  receiver: InternalAccountRow,
  names: Map<string, string>,
  now: Date,
): { outgoing: TransactionRow; incoming: TransactionRow } {
  // Each side names the other party, as a periodic statement must (Regulation E).
  const party = (account: InternalAccountRow) => {
    const name = account.customer_id ? names.get(account.customer_id) : undefined;
    return name ? { name, accountId: account.id } : { accountId: account.id };
  };
  const { description, remittanceInformation, purposeOfPayment } = quote.details;
  const details = Object.fromEntries(
    Object.entries({ exchangeRate: quote.exchange_rate, remittanceInformation, purposeOfPayment }).filter(
      ([, value]) => value !== undefined,
    ),
  );
  const common = {
    platform_id: quote.platform_id,
    status: "COMPLETED",
    received_amount: quote.total_receiving_amount,
    quote_id: quote.id,
    payment_rail: null,
    rail_selection_mode: null,
    failure_reason: null,
    pending_reason: null,
    description: typeof description === "string" ? description : null,
    reference: null,
    source: { sourceType: "ACCOUNT", accountId: sender.id },
    destination: { destinationType: "ACCOUNT", accountId: receiver.id },
    details,
    settled_at: now,
    created_at: now,
    updated_at: now,
  };
  return {
    outgoing: {
      ...common,
      id: quote.transaction_id,
      type: "OUTGOING",
      account_id: sender.id,
      customer_id: sender.customer_id,
      currency: quote.sending_currency,
      sent_amount: quote.total_sending_amount,
      // Amounts show in the row's currency: across currencies only the INCOMING row has receivedAmount.
      received_amount:
        quote.sending_currency === quote.receiving_currency ? quote.total_receiving_amount : null,
      fees: quote.fees_included,
      platform_fees: quote.platform_fees_included,
      details: { ...details, counterpartyInformation: party(receiver) },
    },
    incoming: {
      ...common,
      id: newId("Transaction"),
      type: "INCOMING",
      account_id: receiver.id,
      customer_id: receiver.customer_id,
      currency: quote.receiving_currency,
      sent_amount: null,
      fees: 0,
      platform_fees: 0,
      details: { ...details, counterpartyInformation: party(sender) },
    },
  };
}

/** An agent's pending transaction (deleted by the caller) that the execution re-creates under the same id. */
export interface PendingTransaction {
  id: string;
  createdAt: Date;
}

/**
 * Executes a PENDING quote inside the caller's transaction (the quote row already locked or just
 * inserted). A payout goes to settlePayout, with the regulatory threshold (USD cents) for wallets that
 * are not ACTIVE. An internal transfer: both transactions, the two balance changes (the ledger locks the
 * accounts in id order and refuses an overdraft with INSUFFICIENT_FUNDS), the quote → COMPLETED, and
 * the payment events.
 */
export async function settleQuote(
  tx: Tx,
  caller: Caller,
  quote: store.QuoteRow,
  now: Date,
  walletThreshold: number,
  pending?: PendingTransaction,
): Promise<store.QuoteRow> {
  if (quote.source_account_id === null || quote.destination_account_id === null)
    throw new Error(`quote ${quote.id} is not a transfer between internal accounts`);
  await runExecutionGates(tx, caller, quote, now);
  if (parseId("ExternalAccount", quote.destination_account_id))
    return settlePayout(tx, caller, quote, now, undefined, walletThreshold, pending);
  // Plain reads: the ledger takes the account locks, in id order, so opposite transfers cannot deadlock.
  const sender = await findAccountOrThrow(tx, caller, quote.source_account_id);
  const receiver = await findAccountOrThrow(tx, caller, quote.destination_account_id);
  requireActive(sender);
  requireActive(receiver);
  const names = await customerNames(
    tx,
    [sender.customer_id, receiver.customer_id].filter((id): id is string => id !== null),
  );
  const { outgoing, incoming } = transferTransactions(quote, sender, receiver, names, now);
  if (pending) Object.assign(outgoing, { id: pending.id, created_at: pending.createdAt });
  await insertTransaction(tx, outgoing);
  await insertTransaction(tx, incoming);
  await postBalanceChanges(tx, {
    platformId: quote.platform_id,
    now,
    postings: [
      // 0 - fee rather than -fee: no fee is 0, not -0.
      {
        accountId: sender.id,
        amount: -quote.total_sending_amount,
        fee: 0 - quote.fees_included,
        transactionId: outgoing.id,
      },
      { accountId: receiver.id, amount: quote.total_receiving_amount, fee: 0, transactionId: incoming.id },
    ],
  });
  const completed = await store.updateQuoteStatus(tx, quote.id, {
    status: "COMPLETED",
    transactionId: outgoing.id,
    now,
  });
  for (const [type, row] of [
    ["OUTGOING_PAYMENT.COMPLETED", outgoing],
    ["INCOMING_PAYMENT.COMPLETED", incoming],
  ] as const) {
    await enqueueEvent(tx, { platformId: quote.platform_id, type, data: toTransaction(row), now });
  }
  return completed;
}
