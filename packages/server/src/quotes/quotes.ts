import type { Executor, Tx } from "../core/db/db.js";
import { together } from "../core/db/scope.js";
import { type Deps, nowFor, walletVerificationThreshold } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { parseId } from "../core/ids.js";
import { currency } from "../core/money.js";
import { findAccountOrThrow } from "../customers/accounts.js";
import type { InternalAccountRow } from "../customers/accounts-store.js";
import { requireEndUserTerms } from "../customers/end-user-terms.js";
import type { RailFeeConfig } from "../platform/schemas.js";
import { findPlatform } from "../platform/store.js";
import { requireActive } from "./active.js";
import { withWalletInstructions } from "./embedded-wallet.js";
import { newPayoutQuoteRow } from "./payouts.js";
import { internalTerms, priceBetween } from "./pricing.js";
import { pendingQuoteRow } from "./quote-row.js";
import type { AccountTransferRequest } from "./request.js";
import type { Quote } from "./schemas.js";
import * as store from "./store.js";

export const quoteNotFound = (rawId: string) =>
  new ApiError("QUOTE_NOT_FOUND", { reason: `No quote ${rawId}.` });

/** The wire Quote. A PENDING quote past `expiresAt` reads as EXPIRED before any execute marks it so. */
export function toQuote(row: store.QuoteRow, now: Date): Quote {
  const status = row.status === "PENDING" && now >= row.expires_at ? "EXPIRED" : row.status;
  const quote: Quote = {
    id: row.id,
    status,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
    source: row.source,
    destination: row.destination,
    sendingCurrency: currency(row.sending_currency),
    receivingCurrency: currency(row.receiving_currency),
    lockedCurrencySide: row.locked_currency_side,
    lockedCurrencyAmount: row.locked_currency_amount,
    totalSendingAmount: row.total_sending_amount,
    totalReceivingAmount: row.total_receiving_amount,
    exchangeRate: row.exchange_rate,
    feesIncluded: row.fees_included,
    platformFeesIncluded: row.platform_fees_included,
    transactionId: row.transaction_id,
    ...row.details,
  };
  return quote;
}

/** Account-level checks: 404 for unknown accounts, then 400, then 409. */
async function transferAccounts(tx: Tx, caller: Caller, request: AccountTransferRequest) {
  // One round trip; the source's 404 still answers first (its read is the first to fail).
  const [source, destination] = await together(
    findAccountOrThrow(tx, caller, request.source.accountId),
    findAccountOrThrow(tx, caller, request.destination.accountId),
  );
  if (request.source.customerId !== undefined && request.source.customerId !== source.customer_id)
    throw invalidField("source.customerId", "is not the owner of the source account");
  if (request.immediatelyExecute && source.type === "EMBEDDED_WALLET")
    throw invalidField(
      "immediatelyExecute",
      "cannot be true for an EMBEDDED_WALLET source, which needs a signed execute",
    );
  if (request.platformFeeOverride !== undefined && source.currency !== "USD")
    throw invalidField("platformFeeOverride", "platform fees apply only to USD sources");
  const receiving = request.destination.currency;
  if (receiving !== undefined && receiving !== destination.currency)
    throw invalidField(
      "destination.currency",
      `must be the destination account's currency ${destination.currency}`,
    );
  requireActive(source);
  requireActive(destination);
  return { source, destination };
}

/** Prices a transfer between internal accounts (priceBetween). */
async function newQuoteRow(
  tx: Tx,
  caller: Caller,
  request: AccountTransferRequest,
  accounts: { source: InternalAccountRow; destination: InternalAccountRow },
  feeConfigs: RailFeeConfig[],
  now: Date,
): Promise<store.QuoteRow> {
  const { source, destination } = accounts;
  const pair = { sending: source.currency, receiving: destination.currency };
  const terms = internalTerms(source.currency, request.platformFeeOverride, feeConfigs);
  const { price, exchangeRate } = await priceBetween(tx, caller, pair, request, terms, now);
  const destinationRef = { id: destination.id, currency: destination.currency, wire: {} };
  const row = pendingQuoteRow({ caller, request, source, destination: destinationRef, price, now });
  return { ...row, exchange_rate: exchangeRate };
}

/**
 * Prices and stores a quote inside the caller's transaction: a transfer between internal accounts (across
 * currencies at the cached rate), or a payout to an external bank account or stablecoin wallet
 * (payouts.ts, wallet-payouts.ts). From an EMBEDDED_WALLET it also answers the payloadToSign its execute
 * needs stamped (embedded-wallet.ts). Executing it is payments' (payments/quote-execution.ts); an immediate
 * execution checks the end-user terms in its gate, so they are checked here only for a quote that waits.
 */
export async function createQuoteIn(
  tx: Tx,
  deps: Deps,
  caller: Caller,
  request: AccountTransferRequest,
  now: Date,
): Promise<store.QuoteRow> {
  const payout = parseId("ExternalAccount", request.destination.accountId) !== null;
  const [accounts, platform] = await together(
    payout ? Promise.resolve(null) : transferAccounts(tx, caller, request),
    findPlatform(tx, caller.platformId),
  );
  if (!platform) throw new ApiError("PLATFORM_NOT_FOUND");
  const priced = accounts
    ? await newQuoteRow(tx, caller, request, accounts, platform.fee_configs, now)
    : await newPayoutQuoteRow(tx, caller, request, platform.fee_configs, now, {
        verificationThreshold: walletVerificationThreshold(deps),
      });
  // An EMBEDDED_WALLET source (the off-ramp) executes only with a stamp of its payloadToSign, which an
  // agent's execute does not carry: agents keep answering 501 for this source.
  const source = accounts?.source ?? (await findAccountOrThrow(tx, caller, request.source.accountId));
  if (caller.agent && source.type === "EMBEDDED_WALLET")
    throw new ApiError("NOT_IMPLEMENTED", {
      reason:
        "Agents cannot quote from EMBEDDED_WALLET accounts: executing such a quote needs the wallet's own Service-Wallet-Signature.",
    });
  const row = withWalletInstructions(priced, source);
  if (!request.immediatelyExecute)
    await requireEndUserTerms(tx, [row.customer_id, accounts?.destination.customer_id]);
  await store.insertQuote(tx, row);
  return row;
}

/** `GET /quotes/{quoteId}`; malformed, foreign or unknown ids are `404 QUOTE_NOT_FOUND`. */
export async function getQuote(deps: Deps, caller: Caller, rawId: string): Promise<Quote> {
  return toQuote(await findQuoteOrThrow(deps.db, caller, rawId), nowFor(deps, caller));
}

async function findQuoteOrThrow(db: Executor, caller: Caller, rawId: string): Promise<store.QuoteRow> {
  const id = parseId("Quote", rawId);
  const row = id ? await store.findQuote(db, caller.platformId, id) : undefined;
  if (!row) throw quoteNotFound(rawId);
  return row;
}
