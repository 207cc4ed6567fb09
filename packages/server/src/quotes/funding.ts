import type { Tx } from "../core/db/db.js";
import { type Deps, nowFor, walletVerificationThreshold } from "../core/deps.js";
import { ApiError, type FieldError, invalidInput } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { parseId } from "../core/ids.js";
import { isKnownCurrency } from "../core/money.js";
import { findAccountOrThrow } from "../customers/accounts.js";
import { requireEndUserTerms } from "../customers/end-user-terms.js";
import { bankAccountSpec } from "../external-accounts/bank-accounts/table.js";
import { findExternalAccountOrThrow } from "../external-accounts/external-accounts.js";
import type { ExternalAccountRow } from "../external-accounts/store.js";
import type { RailFeeConfig } from "../platform/schemas.js";
import { findPlatform } from "../platform/store.js";
import { requireActive } from "./active.js";
import { fundingCurrencies } from "./funding-accounts.js";
import { isDepositNetwork, paymentInstructions } from "./funding-instructions.js";
import { bankPayoutRow, type QuoteSourceRef, requireValidated } from "./payouts.js";
import { internalTerms, priceBetween } from "./pricing.js";
import { pendingQuoteRow } from "./quote-row.js";
import type { CreateQuoteBody } from "./schemas.js";
import * as store from "./store.js";
import { deliveredUsdCents, requireWalletPayable, walletNetwork } from "./wallet-payouts.js";

/** A quote funded from outside: the platform pays its payment instructions, then the money lands. */
export interface FundingRequest extends CreateQuoteBody {
  source: CreateQuoteBody["source"] & { sourceType: "REALTIME_FUNDING"; currency: string };
  destination: CreateQuoteBody["destination"] & { destinationType: "ACCOUNT"; accountId: string };
}

/** Stablecoins arrive on chain (funding-instructions.ts): their funding names a `cryptoNetwork`. */
const stablecoins = new Set(["USDC", "USDT", "USDB"]);

/** The field errors of a REALTIME_FUNDING request, all at once (conventions §1.7). */
function fundingFieldErrors(body: CreateQuoteBody): FieldError[] {
  const errors: FieldError[] = [];
  const refuse = (field: string, when: boolean, message: string) => {
    if (when) errors.push({ field, message });
  };
  const { source, destination } = body;
  refuse("source.accountId", source.accountId !== undefined, "applies only to ACCOUNT sources");
  refuse(
    "immediatelyExecute",
    body.immediatelyExecute === true,
    "cannot be true for a REALTIME_FUNDING source: the quote executes when its funds arrive",
  );
  refuse("destination.paymentRail", destination.paymentRail !== undefined, "applies only to payouts");
  refuse(
    "destination.umaAddress",
    destination.umaAddress !== undefined,
    "applies only to UMA_ADDRESS destinations",
  );
  const coin = source.currency !== undefined && stablecoins.has(source.currency);
  refuse(
    "source.cryptoNetwork",
    coin && source.cryptoNetwork === undefined,
    "is required to fund with a stablecoin",
  );
  refuse(
    "source.cryptoNetwork",
    !coin && source.cryptoNetwork !== undefined,
    "applies only to stablecoin funding",
  );
  return errors;
}

/**
 * The checks of a REALTIME_FUNDING request that need no database, in the conventions' order (§1.7):
 * field errors, then the currency; what is not built yet answers `501` after those.
 */
export function checkFundingRequest(body: CreateQuoteBody): FundingRequest {
  const errors = fundingFieldErrors(body);
  if (errors.length > 0) throw invalidInput(errors);
  const { source, destination } = body;
  const code = source.currency ?? "";
  for (const candidate of [code, destination.currency]) {
    if (candidate !== undefined && !isKnownCurrency(candidate))
      throw new ApiError("INVALID_CURRENCY", { reason: `Unknown currency ${candidate}.` });
  }
  if (destination.destinationType !== "ACCOUNT" || destination.accountId === undefined)
    throw new ApiError("NOT_IMPLEMENTED", {
      reason: "Realtime-funded quotes to UMA addresses are not built yet.",
    });
  const network = source.cryptoNetwork;
  if (network !== undefined && !isDepositNetwork(network))
    throw new ApiError("NOT_IMPLEMENTED", { reason: `Funding on ${network} is not built yet.` });
  if (network === undefined && !fundingCurrencies.has(code))
    throw new ApiError("NOT_IMPLEMENTED", {
      reason: `Realtime funding in ${code} is not built yet: it has no payout corridor, so no collection account; every corridor currency has one.`,
    });
  return body as FundingRequest;
}

/** The quote's source as it is on the wire and in the row: money arriving from outside. */
function fundingSource(request: FundingRequest, customerId: string | null) {
  const { currency: sending, cryptoNetwork } = request.source;
  const wire = {
    sourceType: "REALTIME_FUNDING",
    currency: sending,
    ...(customerId ? { customerId } : {}),
    ...(cryptoNetwork ? { cryptoNetwork } : {}),
  };
  return { id: null, customer_id: customerId, currency: sending, wire };
}

/** What a funding quote is priced under: the platform's rail fees and the wallets' regulatory threshold. */
export interface FundingTerms {
  feeConfigs: RailFeeConfig[];
  walletThreshold: number;
}

/**
 * A realtime-funded payout to a stablecoin wallet: priced at the cached rate into the wallet's stablecoin
 * (USD and dollar stablecoins at the peg, exchangeRate 1), under no feeConfigs entry (there is no on-chain
 * rail) but the override for USD funding, as wallet-payouts.ts prices one from an account. A wallet that is
 * not ACTIVE is payable only up to the regulatory threshold (requireWalletPayable).
 */
async function fundedWalletRow(
  tx: Tx,
  caller: Caller,
  request: FundingRequest,
  accounts: { source: QuoteSourceRef; external: ExternalAccountRow },
  walletThreshold: number,
  now: Date,
): Promise<store.QuoteRow> {
  const { source, external } = accounts;
  const pair = { sending: source.currency, receiving: external.currency };
  const terms = internalTerms(source.currency, request.platformFeeOverride, []);
  const { price, exchangeRate } = await priceBetween(tx, caller, pair, request, terms, now);
  requireWalletPayable(external, deliveredUsdCents(price.totalReceivingAmount), walletThreshold);
  const destination = { id: external.id, currency: external.currency, wire: {} };
  const row = pendingQuoteRow({ caller, request, source, destination, price, now });
  return { ...row, exchange_rate: exchangeRate };
}

/**
 * A realtime-funded payout: the money arrives from outside and leaves for a bank account of any corridor
 * (issue 18 §4 "once funded, the conversion and the payout run as in §3"), priced as a payout
 * (quotes/payouts.ts bankPayoutRow), or for a stablecoin wallet (fundedWalletRow; BTC wallets `501`). The
 * account is the customer's of `source.customerId`, else the platform's; another owner's reads as unknown
 * (`404 ACCOUNT_NOT_FOUND`).
 */
async function fundedPayoutRow(
  tx: Tx,
  caller: Caller,
  request: FundingRequest,
  terms: FundingTerms,
  now: Date,
): Promise<store.QuoteRow> {
  const customerId = request.source.customerId;
  const owner = customerId === undefined ? "platform" : "customer";
  const external = await findExternalAccountOrThrow(tx, caller, request.destination.accountId, owner);
  if (customerId !== undefined && external.customer_id !== customerId)
    throw new ApiError("ACCOUNT_NOT_FOUND", {
      reason: `No external account ${request.destination.accountId}.`,
    });
  const wallet = !bankAccountSpec(external.account_type);
  if (wallet) walletNetwork(external);
  else requireValidated(external);
  const requested = request.destination.currency;
  if (requested !== undefined && requested !== external.currency)
    throw invalidInput([
      {
        field: "destination.currency",
        message: `must be ${external.currency}, the currency of external account ${external.id}`,
      },
    ]);
  const accounts = { source: fundingSource(request, external.customer_id), external };
  return wallet
    ? fundedWalletRow(tx, caller, request, accounts, terms.walletThreshold, now)
    : bankPayoutRow(tx, caller, request, accounts, terms.feeConfigs, now);
}

/** The quote to an internal account: priced as a transfer between internal accounts. */
async function fundedDepositRow(
  tx: Tx,
  caller: Caller,
  request: FundingRequest,
  feeConfigs: RailFeeConfig[],
  now: Date,
): Promise<store.QuoteRow> {
  const destination = await findAccountOrThrow(tx, caller, request.destination.accountId);
  const { customerId, currency: sending } = request.source;
  if (customerId !== undefined && customerId !== destination.customer_id)
    throw invalidInput([
      { field: "source.customerId", message: "is not the owner of the destination account" },
    ]);
  const receiving = request.destination.currency;
  if (receiving !== undefined && receiving !== destination.currency)
    throw invalidInput([
      {
        field: "destination.currency",
        message: `must be the destination account's currency ${destination.currency}`,
      },
    ]);
  requireActive(destination);
  const pair = { sending, receiving: destination.currency };
  const terms = internalTerms(sending, request.platformFeeOverride, feeConfigs);
  const { price, exchangeRate } = await priceBetween(tx, caller, pair, request, terms, now);
  const source = fundingSource(request, destination.customer_id);
  const destinationRef = { id: destination.id, currency: destination.currency, wire: {} };
  const row = pendingQuoteRow({ caller, request, source, destination: destinationRef, price, now });
  return { ...row, exchange_rate: exchangeRate };
}

/**
 * Prices and stores a REALTIME_FUNDING quote: the money arrives in `source.currency` by following
 * `paymentInstructions` (in the sandbox, `POST /sandbox/send`), then lands converted on an internal
 * account, or leaves as a payout to a bank account or a stablecoin wallet. The quote stays PENDING until
 * then, and expires unpaid.
 */
export async function createFundingQuoteIn(
  tx: Tx,
  caller: Caller,
  request: FundingRequest,
  terms: FundingTerms,
  now: Date,
): Promise<store.QuoteRow> {
  const payout = parseId("ExternalAccount", request.destination.accountId) !== null;
  const row = payout
    ? await fundedPayoutRow(tx, caller, request, terms, now)
    : await fundedDepositRow(tx, caller, request, terms.feeConfigs, now);
  const instructions = paymentInstructions(request.source, row.id, row.total_sending_amount);
  const quote = { ...row, details: { ...row.details, paymentInstructions: instructions } };
  await requireEndUserTerms(tx, [row.customer_id]);
  await store.insertQuote(tx, quote);
  return quote;
}

/** Whether a quote is funded from outside (its execution is the arrival of the money). */
export const isFundingQuote = (quote: store.QuoteRow) => quote.source.sourceType === "REALTIME_FUNDING";

/** `POST /quotes` with a REALTIME_FUNDING source (createFundingQuoteIn), in its own transaction. */
export async function createFundingQuote(
  deps: Deps,
  caller: Caller,
  request: FundingRequest,
): Promise<store.QuoteRow & { now: Date }> {
  return deps.db.transaction(async (tx) => {
    const now = nowFor(deps, caller);
    const platform = await findPlatform(tx, caller.platformId);
    if (!platform) throw new ApiError("PLATFORM_NOT_FOUND");
    const terms = { feeConfigs: platform.fee_configs, walletThreshold: walletVerificationThreshold(deps) };
    return { ...(await createFundingQuoteIn(tx, caller, request, terms, now)), now };
  });
}
