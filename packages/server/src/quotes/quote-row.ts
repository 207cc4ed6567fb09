import type { Caller } from "../core/http/context.js";
import { newId } from "../core/ids.js";
import type { Price } from "../rails/fees.js";
import type { AccountTransferRequest } from "./request.js";
import type * as store from "./store.js";

/** How long a quote can be executed: creation + 5 minutes on the platform's clock (conventions §3.3). */
export const QUOTE_LIFETIME_MS = 5 * 60 * 1000;

/**
 * A new PENDING quote from an internal account, whatever the destination (another internal account or
 * a payout), or funded from outside (REALTIME_FUNDING): the priced amounts, the echoed request fields
 * and the expiry.
 */
export function pendingQuoteRow(input: {
  caller: Caller;
  request: Pick<
    AccountTransferRequest,
    | "lockedCurrencySide"
    | "lockedCurrencyAmount"
    | "description"
    | "remittanceInformation"
    | "purposeOfPayment"
    | "platformFeeOverride"
  >;
  /** An internal account, or money arriving from outside (`id` null, with its own wire `source`). */
  source: { id: string | null; customer_id: string | null; currency: string; wire?: Record<string, unknown> };
  destination: { id: string; currency: string; wire: Record<string, unknown> };
  price: Price;
  details?: Record<string, unknown>;
  now: Date;
}): store.QuoteRow {
  const { caller, request, source, destination, price, now } = input;
  const { description, remittanceInformation, purposeOfPayment, platformFeeOverride } = request;
  const echoed = { description, remittanceInformation, purposeOfPayment, platformFeeOverride };
  const details = Object.fromEntries(Object.entries(echoed).filter(([, value]) => value !== undefined));
  return {
    id: newId("Quote"),
    platform_id: caller.platformId,
    status: "PENDING",
    customer_id: source.customer_id,
    source_account_id: source.id,
    destination_account_id: destination.id,
    sending_currency: source.currency,
    receiving_currency: destination.currency,
    locked_currency_side: request.lockedCurrencySide,
    locked_currency_amount: request.lockedCurrencyAmount,
    total_sending_amount: price.totalSendingAmount,
    total_receiving_amount: price.totalReceivingAmount,
    exchange_rate: 1,
    fees_included: price.feesIncluded,
    platform_fees_included: price.platformFeesIncluded,
    // Reserved now, so "create, remember transactionId, execute, poll" works (interface, POST /quotes);
    // the transaction itself exists from execution on (docs/decisions.md "Spec conformance").
    transaction_id: newId("Transaction"),
    source: source.wire ?? {
      sourceType: "ACCOUNT",
      accountId: source.id,
      ...(source.customer_id ? { customerId: source.customer_id } : {}),
    },
    destination: {
      destinationType: "ACCOUNT",
      accountId: destination.id,
      currency: destination.currency,
      ...destination.wire,
    },
    details: { ...details, ...input.details },
    created_at: now,
    expires_at: new Date(now.getTime() + QUOTE_LIFETIME_MS),
    updated_at: now,
  };
}
