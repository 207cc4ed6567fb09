import type { Tx } from "../core/db/db.js";
import { walletVerificationThreshold } from "../core/deps.js";
import type { Caller } from "../core/http/context.js";
import { sandboxSuffix } from "../core/ids.js";
import { scheduleJob } from "../core/jobs/jobs.js";
import { money } from "../core/money.js";
import type { InternalAccountRow } from "../customers/accounts-store.js";
import { findExternalAccountOrThrow } from "../external-accounts/external-accounts.js";
import { sandboxNumberOf } from "../external-accounts/sandbox-number.js";
import type { ExternalAccountRow } from "../external-accounts/store.js";
import { lockForPosting, postBalanceChanges } from "../ledger/ledger.js";
import { requireActive } from "../quotes/active.js";
import { ownedExternalAccount, requireValidated } from "../quotes/payouts.js";
import * as quotes from "../quotes/store.js";
import {
  deliveredUsdCents,
  ON_CHAIN_SETTLEMENT_MS,
  principalUsdCents,
  requireWalletPayable,
  usdPrincipal,
  walletNetwork,
} from "../quotes/wallet-payouts.js";
import { expectedSettlementFor, type PaymentRail } from "../rails/rails.js";
import type { ExecuteOptions, ExecutionContext, OutcomePlan } from "./execution-context.js";
import { completePending, insertPayment, paymentFromQuote } from "./lifecycle.js";
import { failPayout, PAYOUT_FAIL, PAYOUT_SETTLE, type PayoutJob, RETURN_AFTER_MS } from "./payout-jobs.js";
import type { TransactionRow } from "./store.js";

const MINUTE_MS = 60_000;

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
type Delivery = { rail: string; expected: Date } | { network: string; expected: Date };

function payoutTransaction(quote: quotes.QuoteRow, delivery: Delivery, now: Date): TransactionRow {
  const { expected } = delivery;
  const rail = "rail" in delivery ? delivery.rail : null;
  // The row has one currency (the sender's), so across currencies (a stablecoin wallet, a corridor's bank
  // account) receivedAmount travels in details and received_amount stays null; refunds use sent_amount −
  // fees (docs/decisions.md "Wallet payouts").
  const sameCurrency = quote.sending_currency === quote.receiving_currency;
  const base = paymentFromQuote(quote, "PROCESSING", { now });
  return {
    ...base,
    received_amount: sameCurrency ? quote.total_receiving_amount : null,
    payment_rail: rail,
    rail_selection_mode: rail === null ? null : (quote.details.railSelectionMode as string),
    details: {
      ...base.details,
      ...(sameCurrency
        ? {}
        : { receivedAmount: money(quote.total_receiving_amount, quote.receiving_currency) }),
      expectedSettlementAt: expected.toISOString(),
      settlementTimelineSeconds: Math.round((expected.getTime() - now.getTime()) / 1000),
    },
  };
}

/** A bank payout re-checked at execution (validated) and when its rail settles it in the receiving country. */
function bankDelivery(external: ExternalAccountRow, quote: quotes.QuoteRow, now: Date): Delivery {
  requireValidated(external);
  const rail = quote.details.paymentRail as PaymentRail;
  return { rail, expected: expectedSettlementFor({ rail, currency: quote.receiving_currency, now }) };
}

/** A wallet payout re-checked at execution (still payable at `usdCents`) and when it settles on chain. */
function walletDelivery(
  external: ExternalAccountRow,
  usdCents: number,
  threshold: number,
  now: Date,
): Delivery {
  const network = walletNetwork(external);
  requireWalletPayable(external, usdCents, threshold);
  return { network, expected: new Date(now.getTime() + ON_CHAIN_SETTLEMENT_MS) };
}

/**
 * The destination re-checked at execution: a bank account must be validated; a wallet must still be
 * payable at this amount (the regulatory threshold; without one, as for /transfer-out, `501`).
 */
async function deliveryFor(
  tx: Tx,
  caller: Caller,
  source: InternalAccountRow,
  quote: quotes.QuoteRow,
  now: Date,
  walletThreshold: number,
): Promise<{ external: ExternalAccountRow; delivery: Delivery }> {
  const external = await ownedExternalAccount(tx, caller, source, quote.destination_account_id as string);
  if (typeof quote.details.paymentRail === "string")
    return { external, delivery: bankDelivery(external, quote, now) };
  return { external, delivery: walletDelivery(external, principalUsdCents(quote), walletThreshold, now) };
}

/**
 * Executes a payout quote inside the caller's transaction: the source account locked and checked
 * ACTIVE under the lock, the destination re-checked, the withdrawal's two balance changes (principal
 * with fee 0, then the fee as a change of its own; the ledger refuses an overdraft), the OUTGOING
 * transaction PROCESSING with its event (an approved agent payment's PENDING row moves there in place),
 * the quote → PROCESSING, and the job that settles or fails it (for a wallet, the settle job records
 * the on-chain transfer). All commit together or not at all.
 */
export async function settlePayout(
  tx: Tx,
  context: ExecutionContext,
  quote: quotes.QuoteRow,
  options: ExecuteOptions,
): Promise<quotes.QuoteRow> {
  const { caller, now } = context;
  const sourceId = quote.source_account_id as string;
  const locked = await lockForPosting(tx, quote.platform_id, [sourceId]);
  const source = locked.get(sourceId) as InternalAccountRow;
  const threshold = walletVerificationThreshold(context.deps);
  const { external, delivery } = await deliveryFor(tx, caller, source, quote, now, threshold);
  requireActive(source);
  const fee = quote.fees_included;
  await postBalanceChanges(tx, {
    platformId: quote.platform_id,
    now,
    locked,
    postings: [
      { accountId: source.id, amount: -usdPrincipal(quote), fee: 0, transactionId: quote.transaction_id },
      // No fee, no fee change: a zero-amount change would move nothing (docs/decisions.md "Payouts").
      ...(fee > 0
        ? [{ accountId: source.id, amount: -fee, fee: -fee, transactionId: quote.transaction_id }]
        : []),
    ],
  });
  return dispatchPayout(
    tx,
    context,
    quote,
    { external, delivery, payment: payoutTransaction(quote, delivery, now) },
    options,
  );
}

/**
 * The money is on its way: the OUTGOING transaction PROCESSING with its event (an approved agent
 * payment's PENDING row moves there in place), the quote → PROCESSING, and the job that settles or fails
 * it by the sandbox outcome of the destination's number (conventions §3.6).
 */
async function dispatchPayout(
  tx: Tx,
  { caller, now }: ExecutionContext,
  quote: quotes.QuoteRow,
  out: { external: ExternalAccountRow; delivery: Delivery; payment: TransactionRow },
  options: ExecuteOptions,
): Promise<quotes.QuoteRow> {
  const { external, delivery, payment } = out;
  let row = payment;
  if (options.pending) row = await completePending(tx, options.pending, payment);
  else await insertPayment(tx, payment);
  const processing = await quotes.updateQuoteStatus(tx, quote.id, { status: "PROCESSING", now });
  // Sandbox outcomes by suffix: of the bank account's number, or of a wallet address (conventions §3.6).
  const suffix = sandboxSuffix(sandboxNumberOf(external));
  const plan = (options.outcome ?? quotePayoutOutcome)(
    caller.environment === "SANDBOX" ? suffix : "",
    row.id,
    now,
    delivery.expected,
  );
  if ("failNow" in plan) {
    await failPayout(tx, row, { reason: plan.failNow, refundFails: false }, now);
    return quotes.updateQuoteStatus(tx, quote.id, { status: "FAILED", now });
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

/**
 * A realtime-funded payout whose money arrived (payments/funding.ts): no internal account is debited;
 * the OUTGOING transaction names the destination account and the arriving `source`, and runs as any payout,
 * over its bank rail or on chain to a wallet (payable up to the threshold by what it delivers, whatever
 * currency funded it). A failure's refund goes back to the funding source, with no balance change
 * (payout-jobs.ts failPayout).
 */
export async function settleFundedPayout(
  tx: Tx,
  context: ExecutionContext,
  quote: quotes.QuoteRow,
  arrivedFrom: Record<string, unknown>,
): Promise<quotes.QuoteRow> {
  const owner = quote.customer_id === null ? "platform" : "customer";
  const external = await findExternalAccountOrThrow(
    tx,
    context.caller,
    quote.destination_account_id as string,
    owner,
  );
  const delivery =
    typeof quote.details.paymentRail === "string"
      ? bankDelivery(external, quote, context.now)
      : walletDelivery(
          external,
          deliveredUsdCents(quote.total_receiving_amount),
          walletVerificationThreshold(context.deps),
          context.now,
        );
  const payment = {
    ...payoutTransaction(quote, delivery, context.now),
    account_id: external.id,
    source: arrivedFrom,
  };
  return dispatchPayout(tx, context, quote, { external, delivery, payment }, {});
}
