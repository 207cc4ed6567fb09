import type { Tx } from "../core/db/db.js";
import { newId } from "../core/ids.js";
import { scheduleJob } from "../core/jobs/jobs.js";
import type { InternalAccountRow } from "../customers/accounts-store.js";
import { lockForPosting, postBalanceChanges } from "../ledger/ledger.js";
import { requireActive } from "../quotes/active.js";
import * as quotes from "../quotes/store.js";
import type { ExecuteOptions, ExecutionContext } from "./execution-context.js";
import {
  completePending,
  insertPayment,
  insertPaymentAwaitingAnswer,
  paymentFromQuote,
  transitionPayment,
} from "./lifecycle.js";
import { failPayout } from "./payout-jobs.js";
import { lockTransaction, type TransactionRow } from "./store.js";

// UMA payments' money (issue 19): the sender's debit and OUTGOING transaction, the receiver's INCOMING
// one and its credit. The protocol (pay requests, the settlement layer) is uma/'s, which calls these.

/** The job that pays a UMA send's invoice over the settlement layer (uma/settlement.ts handles it). */
export const UMA_PAY_INVOICE = "uma.pay-invoice";

export const isUmaSend = (quote: quotes.QuoteRow) => quote.destination.destinationType === "UMA_ADDRESS";

/**
 * Executes a quote to a UMA address in the caller's transaction: the source locked and checked ACTIVE,
 * one balance change (`amount` −totalSendingAmount, `fee` −feesIncluded: conventions §3.3), the OUTGOING
 * transaction PROCESSING, the quote → PROCESSING, and the job that pays the receiver's invoice.
 */
export async function settleUmaSend(
  tx: Tx,
  { now }: ExecutionContext,
  quote: quotes.QuoteRow,
  options: ExecuteOptions,
): Promise<quotes.QuoteRow> {
  const sourceId = quote.source_account_id as string;
  const locked = await lockForPosting(tx, quote.platform_id, [sourceId]);
  requireActive(locked.get(sourceId) as InternalAccountRow);
  await postBalanceChanges(tx, {
    platformId: quote.platform_id,
    now,
    locked,
    postings: [
      {
        accountId: sourceId,
        amount: -quote.total_sending_amount,
        fee: 0 - quote.fees_included,
        transactionId: quote.transaction_id,
      },
    ],
  });
  // The destination is the address, as the quote names it (`{destinationType: "UMA_ADDRESS", umaAddress, currency}`).
  const payment = paymentFromQuote(quote, "PROCESSING", { now, destination: quote.destination });
  if (options.pending) await completePending(tx, options.pending, payment);
  else await insertPayment(tx, payment);
  const payload = { transactionId: payment.id };
  await scheduleJob(tx, { platformId: quote.platform_id, kind: UMA_PAY_INVOICE, payload, runAt: now, now });
  return quotes.updateQuoteStatus(tx, quote.id, { status: "PROCESSING", now });
}

/** The invoice is paid: COMPLETED, the settlement leg's hash in `reconciliationInstructions` (spec). */
export async function completeUmaSend(tx: Tx, row: TransactionRow, transactionHash: string, now: Date) {
  const reconciliationInstructions = { transactionHash };
  await transitionPayment(tx, row, "COMPLETED", {
    details: { ...row.details, reconciliationInstructions },
    settled_at: now,
    now,
  });
  if (row.quote_id) await quotes.updateQuoteStatus(tx, row.quote_id, { status: "COMPLETED", now });
}

/** The invoice could not be paid: FAILED QUOTE_EXECUTION_FAILED, the debit refunded (spec). */
export function failUmaSend(tx: Tx, row: TransactionRow, now: Date) {
  return failPayout(tx, row, { reason: "QUOTE_EXECUTION_FAILED", refundFails: false }, now);
}

/** The sender's PROCESSING UMA send, locked; undefined once it moved on (a job run twice). */
export async function lockProcessingUmaSend(tx: Tx, platformId: string, id: string) {
  const row = await lockTransaction(tx, platformId, id);
  return row?.status === "PROCESSING" ? row : undefined;
}

export interface IncomingUmaPayment {
  platformId: string;
  account: InternalAccountRow;
  amount: number;
  senderUmaAddress: string;
  /** What the sender said about its payer, by CustomerInfoFieldName (the hosted API's counterpartyInformation). */
  counterpartyInformation: Record<string, unknown>;
  /** The protocol's own facts (invoice, payment hash, sender domain, nonce): uma/'s, kept in details. */
  uma: Record<string, unknown>;
  description?: string;
  now: Date;
}

/**
 * A pay request checked: the receiver's INCOMING transaction PENDING, no money yet. Its
 * INCOMING_PAYMENT.PENDING event is the platform's approval request: the caller delivers it at once
 * (the answered delivery's id is returned) and settles or fails the payment on the answer.
 */
export async function openUmaIncoming(tx: Tx, incoming: IncomingUmaPayment) {
  const { account, amount, now } = incoming;
  const row: TransactionRow = {
    id: newId("Transaction"),
    platform_id: incoming.platformId,
    type: "INCOMING",
    status: "PENDING",
    account_id: account.id,
    customer_id: account.customer_id,
    currency: account.currency,
    sent_amount: null,
    received_amount: amount,
    fees: 0,
    platform_fees: 0,
    quote_id: null,
    payment_rail: null,
    rail_selection_mode: null,
    failure_reason: null,
    pending_reason: null,
    description: incoming.description ?? null,
    reference: null,
    source: { sourceType: "UMA_ADDRESS", umaAddress: incoming.senderUmaAddress, currency: account.currency },
    destination: { destinationType: "ACCOUNT", accountId: account.id },
    details: { counterpartyInformation: incoming.counterpartyInformation, uma: incoming.uma },
    settled_at: null,
    created_at: now,
    updated_at: now,
  };
  const { deliveryId } = await insertPaymentAwaitingAnswer(tx, row);
  return { row, deliveryId };
}

/** Why a pending incoming UMA payment failed before any money moved (the platform refused it or did not answer). */
export type IncomingRefusal =
  | "COMPLIANCE_REJECTED"
  | "PAYMENT_APPROVAL_WEBHOOK_ERROR"
  | "PAYMENT_APPROVAL_TIMED_OUT";

/** The platform refused a pending incoming payment, or never answered: PENDING → FAILED, nothing credited. */
export async function failUmaIncoming(
  tx: Tx,
  platformId: string,
  id: string,
  reason: IncomingRefusal,
  now: Date,
) {
  const row = await lockTransaction(tx, platformId, id);
  if (row?.status !== "PENDING") return row;
  return transitionPayment(tx, row, "FAILED", { failure_reason: reason, now });
}

/**
 * The invoice of a pending incoming payment was paid: the credit on the receiver's account (one balance
 * change) and PENDING → COMPLETED, together. A payment no longer PENDING is left as it is.
 */
export async function settleUmaIncoming(tx: Tx, row: TransactionRow, now: Date): Promise<TransactionRow> {
  if (row.status !== "PENDING") return row;
  await postBalanceChanges(tx, {
    platformId: row.platform_id,
    now,
    postings: [
      { accountId: row.account_id, amount: row.received_amount ?? 0, fee: 0, transactionId: row.id },
    ],
  });
  return transitionPayment(tx, row, "COMPLETED", { settled_at: now, now });
}

/** The pending incoming payment whose invoice has this payment hash, locked. */
export async function lockIncomingByPaymentHash(tx: Tx, paymentHash: string) {
  const [row] = await tx.query<TransactionRow>(
    `SELECT * FROM transactions WHERE type = 'INCOMING' AND details #>> '{uma,paymentHash}' = $1 FOR UPDATE`,
    [paymentHash],
  );
  return row;
}

/** Whether a pay request with this sender domain and nonce was already accepted (DUPLICATE_PAY_REQUEST). */
export async function hasIncomingPayRequest(tx: Tx, senderDomain: string, nonce: string): Promise<boolean> {
  const rows = await tx.query(
    `SELECT 1 FROM transactions WHERE type = 'INCOMING'
       AND details #>> '{uma,senderDomain}' = $1 AND details #>> '{uma,nonce}' = $2 LIMIT 1`,
    [senderDomain, nonce],
  );
  return rows.length > 0;
}
