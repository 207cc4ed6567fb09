import type { Tx } from "../core/db/db.js";
import type { Caller } from "../core/http/context.js";
import { newId, sandboxSuffix } from "../core/ids.js";
import { scheduleJob } from "../core/jobs/jobs.js";
import { findAccountOrThrow } from "../customers/accounts.js";
import { postBalanceChanges } from "../ledger/ledger.js";
import { insertTransaction, type TransactionRow } from "../transactions/store.js";
import { toTransaction } from "../transactions/transactions.js";
import { enqueueEvent } from "../webhooks/outbox.js";
import { failPayout, PAYOUT_FAIL, PAYOUT_SETTLE, type PayoutJob, RETURN_AFTER_MS } from "./payout-jobs.js";
import { payoutDestination, requireValidated } from "./payouts.js";
import { expectedSettlement, type PayoutRail } from "./rails.js";
import { requireActive } from "./settle.js";
import * as store from "./store.js";

const MINUTE_MS = 60_000;

/**
 * The sandbox outcome of a payout by the external account's accountNumber suffix (conventions §3.6,
 * "Quote payout" column), as the job that finishes it: which kind, when, and with what payload.
 */
export type OutcomePlan = (
  suffix: string,
  transactionId: string,
  now: Date,
  expected: Date,
) => PayoutJob | { failNow: string };

export const quotePayoutOutcome: OutcomePlan = (suffix, transactionId, now, expected) => {
  const fail = (failureReason: string, runAt: Date, refundFails = false): PayoutJob => ({
    kind: PAYOUT_FAIL,
    runAt,
    payload: { transactionId, failureReason, refundFails },
  });
  switch (suffix) {
    case "002":
      return fail("QUOTE_EXECUTION_FAILED", now);
    case "003":
      return {
        kind: PAYOUT_SETTLE,
        runAt: new Date(now.getTime() + 6 * MINUTE_MS),
        payload: { transactionId },
      };
    case "004":
      return fail("ACCOUNT_CANNOT_RECEIVE", expected);
    case "005":
      return {
        kind: PAYOUT_SETTLE,
        runAt: expected,
        payload: { transactionId, returnAfterMs: RETURN_AFTER_MS },
      };
    case "006":
      return fail("QUOTE_EXECUTION_FAILED", now);
    case "007":
      return fail("QUOTE_EXECUTION_FAILED", expected, true);
    default:
      return { kind: PAYOUT_SETTLE, runAt: expected, payload: { transactionId } };
  }
};

function payoutTransaction(quote: store.QuoteRow, customerId: string | null, now: Date): TransactionRow {
  const rail = quote.details.paymentRail as PayoutRail;
  const expected = expectedSettlement(rail, now);
  const { description, remittanceInformation, purposeOfPayment } = quote.details;
  const echoed = { remittanceInformation, purposeOfPayment };
  return {
    id: newId("Transaction"),
    platform_id: quote.platform_id,
    type: "OUTGOING",
    status: "PROCESSING",
    account_id: quote.source_account_id as string,
    customer_id: customerId,
    currency: quote.sending_currency,
    sent_amount: quote.total_sending_amount,
    received_amount: quote.total_receiving_amount,
    fees: quote.fees_included,
    platform_fees: quote.platform_fees_included,
    quote_id: quote.id,
    payment_rail: rail,
    rail_selection_mode: quote.details.railSelectionMode as string,
    failure_reason: null,
    pending_reason: null,
    description: typeof description === "string" ? description : null,
    reference: null,
    source: { sourceType: "ACCOUNT", accountId: quote.source_account_id },
    destination: { destinationType: "ACCOUNT", accountId: quote.destination_account_id },
    details: {
      exchangeRate: quote.exchange_rate,
      ...Object.fromEntries(Object.entries(echoed).filter(([, value]) => value !== undefined)),
      expectedSettlementAt: expected.toISOString(),
      settlementTimelineSeconds: Math.round((expected.getTime() - now.getTime()) / 1000),
    },
    settled_at: null,
    created_at: now,
    updated_at: now,
  };
}

/**
 * Executes a payout quote inside the caller's transaction: the OUTGOING transaction (PROCESSING), the
 * withdrawal's two balance changes (principal with fee 0, then the fee as a change of its own; the
 * ledger refuses an overdraft), the quote → PROCESSING, OUTGOING_PAYMENT.PROCESSING, and the job that
 * settles or fails it. All commit together or not at all.
 */
export async function settlePayout(
  tx: Tx,
  caller: Caller,
  quote: store.QuoteRow,
  now: Date,
  outcome: OutcomePlan = quotePayoutOutcome,
): Promise<store.QuoteRow> {
  const source = await findAccountOrThrow(tx, caller, quote.source_account_id as string);
  const external = await payoutDestination(tx, caller, source, quote.destination_account_id as string);
  requireValidated(external);
  requireActive(source);
  const row = payoutTransaction(quote, source.customer_id, now);
  await insertTransaction(tx, row);
  const principal = quote.total_receiving_amount;
  const fee = quote.fees_included;
  await postBalanceChanges(tx, {
    platformId: quote.platform_id,
    now,
    postings: [
      { accountId: source.id, amount: -principal, fee: 0, transactionId: row.id },
      // No fee, no fee change: a zero-amount change would move nothing (docs/decisions.md "Payouts").
      ...(fee > 0 ? [{ accountId: source.id, amount: -fee, fee: -fee, transactionId: row.id }] : []),
    ],
  });
  const processing = await store.updateQuoteStatus(tx, quote.id, {
    status: "PROCESSING",
    transactionId: row.id,
    now,
  });
  await enqueueEvent(tx, {
    platformId: quote.platform_id,
    type: "OUTGOING_PAYMENT.PROCESSING",
    data: toTransaction(row),
    now,
  });
  const expected = new Date(row.details.expectedSettlementAt as string);
  const suffix = sandboxSuffix(String(external.account_info.accountNumber ?? ""));
  const plan = outcome(caller.environment === "SANDBOX" ? suffix : "", row.id, now, expected);
  if ("failNow" in plan) {
    await failPayout(tx, row, { reason: plan.failNow, refundFails: false }, now);
    return store.updateQuoteStatus(tx, quote.id, { status: "FAILED", now });
  }
  await scheduleJob(tx, { platformId: quote.platform_id, ...plan, now });
  return processing;
}
