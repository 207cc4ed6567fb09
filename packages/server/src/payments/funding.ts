import { randomBytes } from "node:crypto";
import type { Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { parseId } from "../core/ids.js";
import { money } from "../core/money.js";
import { isFundingQuote } from "../quotes/funding.js";
import { quoteNotFound } from "../quotes/quotes.js";
import * as quotes from "../quotes/store.js";
import { receivingAccount, recordDeposit } from "./deposits.js";
import type { ExecutionContext } from "./execution-context.js";
import { insertPayment } from "./lifecycle.js";
import { settleFundedPayout } from "./payouts.js";
import { quoteExpired } from "./quote-execution.js";
import type { Refund } from "./refunds.js";
import { lockTransaction, type TransactionRow } from "./store.js";
import { type Transaction, toTransaction } from "./wire.js";

export interface SendBody {
  quoteId: string;
  currencyCode: string;
  currencyAmount?: number | undefined;
}

/**
 * The row of a funded quote's money, an INCOMING transaction of the receiving account under the quote's
 * reserved id. It has one currency (the receiving one), so across currencies what was sent travels as
 * `sentAmount` in details and the fee, charged in the sending currency, is not in `fees` (it never
 * touched this account's balance).
 */
function fundedRow(quote: quotes.QuoteRow, sent: number): Partial<TransactionRow> {
  const same = quote.sending_currency === quote.receiving_currency;
  return {
    id: quote.transaction_id,
    quote_id: quote.id,
    sent_amount: same ? sent : null,
    fees: same ? quote.fees_included : 0,
    details: {
      exchangeRate: quote.exchange_rate,
      ...(same ? {} : { sentAmount: money(sent, quote.sending_currency) }),
    },
  };
}

/** The source as the money arrived: a stablecoin's on-chain transfer is recorded on it (conventions §3.4). */
function arrivedFrom(quote: quotes.QuoteRow): Record<string, unknown> {
  const network = quote.source.cryptoNetwork;
  if (typeof network !== "string") return quote.source;
  const transactionHash = `0x${randomBytes(32).toString("hex")}`;
  return { ...quote.source, onChainTransaction: { transactionHash, network } };
}

/** The funds match: they land on the destination account (converted at the quote's rate); quote COMPLETED. */
async function land(tx: Tx, caller: Caller, quote: quotes.QuoteRow, now: Date): Promise<TransactionRow> {
  const account = await receivingAccount(tx, caller, quote.destination_account_id as string);
  const description = typeof quote.details.description === "string" ? quote.details.description : null;
  const deposit = {
    amount: quote.total_receiving_amount,
    description,
    paymentRail: null,
    source: arrivedFrom(quote),
    row: fundedRow(quote, quote.total_sending_amount),
  };
  const { transaction } = await recordDeposit(tx, caller, account, deposit, now);
  await quotes.updateQuoteStatus(tx, quote.id, { status: "COMPLETED", now });
  return transaction;
}

/**
 * The funds do not match the instructions: nothing lands, the money goes back to the sender (the refund
 * COMPLETED), the transaction is FAILED with FUNDING_AMOUNT_MISMATCH and the quote FAILED.
 */
async function returnMismatch(
  tx: Tx,
  quote: quotes.QuoteRow,
  sent: number,
  now: Date,
): Promise<TransactionRow> {
  // A payout's row is the sender's (OUTGOING, in the sending currency); a deposit's the receiver's.
  const payout = parseId("ExternalAccount", quote.destination_account_id ?? "") !== null;
  const base = payout
    ? { sent_amount: sent, details: { exchangeRate: quote.exchange_rate } }
    : fundedRow(quote, sent);
  const refund: Refund = {
    transactionId: quote.transaction_id,
    reference: `RF-${quote.transaction_id.slice(-12).toUpperCase()}`,
    amount: money(sent, quote.sending_currency),
    status: "COMPLETED",
    reason: "FUNDING_AMOUNT_MISMATCH",
    initiatedAt: now.toISOString(),
    settledAt: now.toISOString(),
  };
  const row: TransactionRow = {
    id: quote.transaction_id,
    platform_id: quote.platform_id,
    type: payout ? "OUTGOING" : "INCOMING",
    status: "FAILED",
    account_id: quote.destination_account_id as string,
    customer_id: quote.customer_id,
    currency: payout ? quote.sending_currency : quote.receiving_currency,
    sent_amount: base.sent_amount ?? null,
    received_amount: null,
    fees: 0,
    platform_fees: 0,
    quote_id: quote.id,
    payment_rail: null,
    rail_selection_mode: null,
    failure_reason: "FUNDING_AMOUNT_MISMATCH",
    pending_reason: null,
    description: typeof quote.details.description === "string" ? quote.details.description : null,
    reference: null,
    source: arrivedFrom(quote),
    destination: { destinationType: "ACCOUNT", accountId: quote.destination_account_id },
    details: { ...base.details, refund },
    settled_at: null,
    created_at: now,
    updated_at: now,
  };
  await insertPayment(tx, row);
  await quotes.updateQuoteStatus(tx, quote.id, { status: "FAILED", now });
  return row;
}

/**
 * The funds match and the quote pays out: the payout runs as any other (payments/payouts.ts), with no
 * internal account debited. It runs no execution gates: the money never touched the platform's balances.
 */
async function payOut(tx: Tx, context: ExecutionContext, quote: quotes.QuoteRow): Promise<TransactionRow> {
  await settleFundedPayout(tx, context, quote, arrivedFrom(quote));
  const row = await lockTransaction(tx, quote.platform_id, quote.transaction_id);
  if (!row) throw new Error(`the payout of ${quote.id} was not written`);
  return row;
}

type Outcome = { transaction: Transaction } | { expired: quotes.QuoteRow };

/**
 * `POST /sandbox/send {quoteId, currencyCode, currencyAmount?}`: pays a REALTIME_FUNDING quote's payment
 * instructions (conventions §3.3). The exact amount (`currencyAmount` defaults to `totalSendingAmount`)
 * lands on the destination; another amount comes back (FUNDING_AMOUNT_MISMATCH). The quote row is locked
 * first, so a second send finds it funded (`409`); an unpaid quote past `expiresAt` is EXPIRED, committed
 * before `400 QUOTE_EXPIRED`.
 */
export async function sandboxSend(deps: Deps, caller: Caller, body: SendBody): Promise<Transaction> {
  const id = parseId("Quote", body.quoteId);
  if (!id) throw quoteNotFound(body.quoteId);
  const outcome = await deps.db.transaction(async (tx): Promise<Outcome> => {
    const quote = await quotes.lockQuote(tx, caller.platformId, id);
    if (!quote) throw quoteNotFound(body.quoteId);
    if (!isFundingQuote(quote))
      throw invalidField("quoteId", "is not a REALTIME_FUNDING quote; only those have payment instructions");
    const now = nowFor(deps, caller);
    if (quote.status === "EXPIRED") return { expired: quote };
    if (quote.status !== "PENDING")
      throw new ApiError("CONFLICT", {
        reason: `Quote ${quote.id} is ${quote.status}; its funds already arrived.`,
      });
    if (now >= quote.expires_at)
      return { expired: await quotes.updateQuoteStatus(tx, quote.id, { status: "EXPIRED", now }) };
    if (body.currencyCode !== quote.sending_currency)
      throw invalidField(
        "currencyCode",
        `must be ${quote.sending_currency}, the currency of the payment instructions`,
      );
    const sent = body.currencyAmount ?? quote.total_sending_amount;
    const row =
      sent !== quote.total_sending_amount
        ? await returnMismatch(tx, quote, sent, now)
        : parseId("ExternalAccount", quote.destination_account_id ?? "")
          ? await payOut(tx, { deps, caller, now, gates: [] }, quote)
          : await land(tx, caller, quote, now);
    return { transaction: toTransaction(row) };
  });
  if ("expired" in outcome) throw quoteExpired(outcome.expired);
  return outcome.transaction;
}
