import type { Tx } from "../core/db/db.js";
import type { Caller } from "../core/http/context.js";
import { sandboxSuffix } from "../core/ids.js";
import { scheduleJob } from "../core/jobs/jobs.js";
import { money } from "../core/money.js";
import { findAccountOrThrow } from "../customers/accounts.js";
import type { InternalAccountRow } from "../customers/accounts-store.js";
import type { ExternalAccountRow } from "../external-accounts/store.js";
import { postBalanceChanges } from "../ledger/ledger.js";
import { expectedSettlement, type PayoutRail } from "../rails/rails.js";
import { insertTransaction, type TransactionRow } from "../transactions/store.js";
import { toTransaction } from "../transactions/transactions.js";
import { enqueueEvent } from "../webhooks/outbox.js";
import { failPayout, PAYOUT_FAIL, PAYOUT_SETTLE, type PayoutJob, RETURN_AFTER_MS } from "./payout-jobs.js";
import { onlyBankAccounts, ownedExternalAccount, requireValidated } from "./payouts.js";
import { type PendingTransaction, requireActive } from "./settle.js";
import * as store from "./store.js";
import {
  ON_CHAIN_SETTLEMENT_MS,
  requireWalletPayable,
  usdPrincipal,
  walletNetwork,
} from "./wallet-payouts.js";

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

/** Where a payout goes: over a bank rail, or on chain to a wallet (wallet-payouts.ts). */
type Delivery = { rail: PayoutRail; expected: Date } | { network: string; expected: Date };

function payoutTransaction(
  quote: store.QuoteRow,
  customerId: string | null,
  delivery: Delivery,
  now: Date,
): TransactionRow {
  const { expected } = delivery;
  const rail = "rail" in delivery ? delivery.rail : null;
  const { description, remittanceInformation, purposeOfPayment } = quote.details;
  const echoed = { remittanceInformation, purposeOfPayment };
  // The row has one currency (the sender's), so a stablecoin receivedAmount travels in details, and
  // received_amount stays null; refunds use sent_amount − fees (docs/decisions.md "Wallet payouts").
  const onChain = rail === null;
  return {
    id: quote.transaction_id,
    platform_id: quote.platform_id,
    type: "OUTGOING",
    status: "PROCESSING",
    account_id: quote.source_account_id as string,
    customer_id: customerId,
    currency: quote.sending_currency,
    sent_amount: quote.total_sending_amount,
    received_amount: onChain ? null : quote.total_receiving_amount,
    fees: quote.fees_included,
    platform_fees: quote.platform_fees_included,
    quote_id: quote.id,
    payment_rail: rail,
    rail_selection_mode: onChain ? null : (quote.details.railSelectionMode as string),
    failure_reason: null,
    pending_reason: null,
    description: typeof description === "string" ? description : null,
    reference: null,
    source: { sourceType: "ACCOUNT", accountId: quote.source_account_id },
    destination: { destinationType: "ACCOUNT", accountId: quote.destination_account_id },
    details: {
      exchangeRate: quote.exchange_rate,
      ...(onChain ? { receivedAmount: money(quote.total_receiving_amount, quote.receiving_currency) } : {}),
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
 * The destination re-checked at execution: a bank account must be validated; a wallet must still be
 * payable at this amount (the regulatory threshold; without one, as for /transfer-out, `501`).
 */
async function deliveryFor(
  tx: Tx,
  caller: Caller,
  source: InternalAccountRow,
  quote: store.QuoteRow,
  now: Date,
  walletThreshold: number | undefined,
): Promise<{ external: ExternalAccountRow; delivery: Delivery }> {
  const external = await ownedExternalAccount(tx, caller, source, quote.destination_account_id as string);
  if (external.account_type === "USD_ACCOUNT") {
    requireValidated(external);
    const rail = quote.details.paymentRail as PayoutRail;
    return { external, delivery: { rail, expected: expectedSettlement(rail, now) } };
  }
  if (walletThreshold === undefined) throw onlyBankAccounts(external);
  const network = walletNetwork(external);
  requireWalletPayable(external, usdPrincipal(quote), walletThreshold);
  return { external, delivery: { network, expected: new Date(now.getTime() + ON_CHAIN_SETTLEMENT_MS) } };
}

/**
 * Executes a payout quote inside the caller's transaction: the OUTGOING transaction (PROCESSING), the
 * withdrawal's two balance changes (principal with fee 0, then the fee as a change of its own; the
 * ledger refuses an overdraft), the quote → PROCESSING, OUTGOING_PAYMENT.PROCESSING, and the job that
 * settles or fails it (for a wallet, the settle job records the on-chain transfer). All commit together
 * or not at all. `walletThreshold` (USD cents) enables payouts to wallets.
 */
export async function settlePayout(
  tx: Tx,
  caller: Caller,
  quote: store.QuoteRow,
  now: Date,
  outcome: OutcomePlan = quotePayoutOutcome,
  walletThreshold?: number,
  pending?: PendingTransaction,
): Promise<store.QuoteRow> {
  const source = await findAccountOrThrow(tx, caller, quote.source_account_id as string);
  const { external, delivery } = await deliveryFor(tx, caller, source, quote, now, walletThreshold);
  requireActive(source);
  const row = payoutTransaction(quote, source.customer_id, delivery, now);
  if (pending) Object.assign(row, { id: pending.id, created_at: pending.createdAt });
  await insertTransaction(tx, row);
  const principal = usdPrincipal(quote);
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
  // Sandbox outcomes by suffix: of a bank accountNumber, or of a wallet address (conventions §3.6).
  const info = external.account_info;
  const suffix = sandboxSuffix(String(info.accountNumber ?? info.address ?? ""));
  const plan = outcome(caller.environment === "SANDBOX" ? suffix : "", row.id, now, delivery.expected);
  if ("failNow" in plan) {
    await failPayout(tx, row, { reason: plan.failNow, refundFails: false }, now);
    return store.updateQuoteStatus(tx, quote.id, { status: "FAILED", now });
  }
  const onChain = "network" in delivery ? { network: delivery.network } : {};
  await scheduleJob(tx, {
    platformId: quote.platform_id,
    ...plan,
    payload: { ...plan.payload, ...onChain },
    now,
  });
  return processing;
}
