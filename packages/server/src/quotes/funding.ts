import { randomBytes } from "node:crypto";
import { base58 } from "@scure/base";
import type { Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, type FieldError, invalidInput } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { parseId } from "../core/ids.js";
import { isKnownCurrency } from "../core/money.js";
import { findAccountOrThrow } from "../customers/accounts.js";
import { requireEndUserTerms } from "../customers/end-user-terms.js";
import { bankAccountSpec } from "../external-accounts/bank-accounts/table.js";
import { findExternalAccountOrThrow } from "../external-accounts/external-accounts.js";
import type { RailFeeConfig } from "../platform/schemas.js";
import { findPlatform } from "../platform/store.js";
import { requireActive } from "./active.js";
import { bankPayoutRow, requireValidated } from "./payouts.js";
import { internalTerms, priceBetween } from "./pricing.js";
import { pendingQuoteRow } from "./quote-row.js";
import type { CreateQuoteBody } from "./schemas.js";
import * as store from "./store.js";

/** A quote funded from outside: the platform pays its payment instructions, then the money lands. */
export interface FundingRequest extends CreateQuoteBody {
  source: CreateQuoteBody["source"] & { sourceType: "REALTIME_FUNDING"; currency: string };
  destination: CreateQuoteBody["destination"] & { destinationType: "ACCOUNT"; accountId: string };
}

/** Stablecoins arrive on chain: where each network's deposit address comes from (conventions §3.4 networks). */
const depositAddress: Record<string, { accountType: string; address: () => string }> = {
  ETHEREUM: { accountType: "ETHEREUM_WALLET", address: () => `0x${randomBytes(20).toString("hex")}` },
  BASE: { accountType: "BASE_WALLET", address: () => `0x${randomBytes(20).toString("hex")}` },
  POLYGON: { accountType: "POLYGON_WALLET", address: () => `0x${randomBytes(20).toString("hex")}` },
  PLASMA: { accountType: "PLASMA_WALLET", address: () => `0x${randomBytes(20).toString("hex")}` },
  SOLANA: { accountType: "SOLANA_WALLET", address: () => base58.encode(randomBytes(32)) },
};
const stablecoins = new Set(["USDC", "USDT", "USDB"]);
/** Fiat that arrives by bank transfer; other currencies' funding accounts come with their corridors. */
const fiatFunding = new Set(["USD"]);

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
  if (network !== undefined && depositAddress[network] === undefined)
    throw new ApiError("NOT_IMPLEMENTED", { reason: `Funding on ${network} is not built yet.` });
  if (network === undefined && !fiatFunding.has(code))
    throw new ApiError("NOT_IMPLEMENTED", {
      reason: `Realtime funding in ${code} is not built yet; USD is.`,
    });
  return body as FundingRequest;
}

/** A short reference the sender quotes with the transfer, so the arriving money finds its quote. */
const fundingReference = (quoteId: string) => `PAYSVC-${quoteId.replace(/-/g, "").slice(-12).toUpperCase()}`;

/** Where and how to pay a funding quote: the platform's sandbox bank account, or a deposit address. */
function paymentInstructions(request: FundingRequest, quoteId: string, amount: number) {
  const network = request.source.cryptoNetwork;
  const reference = fundingReference(quoteId);
  if (network !== undefined) {
    const target = depositAddress[network] as (typeof depositAddress)[string];
    return [
      {
        instructionsNotes: `Send exactly ${amount} minor units of ${request.source.currency} on ${network} to this address.`,
        isPlatformAccount: true,
        accountOrWalletInfo: { accountType: target.accountType, address: target.address() },
      },
    ];
  }
  return [
    {
      instructionsNotes: `Send exactly ${amount} minor units of USD, quoting reference ${reference}.`,
      isPlatformAccount: true,
      accountOrWalletInfo: {
        accountType: "USD_ACCOUNT",
        accountNumber: "9876543210",
        routingNumber: "021000021",
        bankName: "paysvc sandbox bank",
        paymentRails: ["ACH", "WIRE", "RTP", "FEDNOW"],
        reference,
      },
    },
  ];
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

/**
 * A realtime-funded payout: the money arrives from outside and leaves for a bank account of any corridor
 * (issue 18 §4 "once funded, the conversion and the payout run as in §3"), priced as a payout
 * (quotes/payouts.ts bankPayoutRow). The account is the customer's of `source.customerId`, else the
 * platform's; another owner's reads as unknown (`404 ACCOUNT_NOT_FOUND`). Wallets stay `501`.
 */
async function fundedPayoutRow(
  tx: Tx,
  caller: Caller,
  request: FundingRequest,
  feeConfigs: RailFeeConfig[],
  now: Date,
): Promise<store.QuoteRow> {
  const customerId = request.source.customerId;
  const owner = customerId === undefined ? "platform" : "customer";
  const external = await findExternalAccountOrThrow(tx, caller, request.destination.accountId, owner);
  if (customerId !== undefined && external.customer_id !== customerId)
    throw new ApiError("ACCOUNT_NOT_FOUND", {
      reason: `No external account ${request.destination.accountId}.`,
    });
  if (!bankAccountSpec(external.account_type))
    throw new ApiError("NOT_IMPLEMENTED", {
      reason: `Realtime-funded payouts to ${external.account_type} external accounts are not built yet; to bank accounts they are.`,
    });
  requireValidated(external);
  const requested = request.destination.currency;
  if (requested !== undefined && requested !== external.currency)
    throw invalidInput([
      {
        field: "destination.currency",
        message: `must be ${external.currency}, the currency of external account ${external.id}`,
      },
    ]);
  const source = fundingSource(request, external.customer_id);
  return bankPayoutRow(tx, caller, request, { source, external }, feeConfigs, now);
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
 * account, or leaves as a payout to a bank account. The quote stays PENDING until then, and expires unpaid.
 */
export async function createFundingQuoteIn(
  tx: Tx,
  caller: Caller,
  request: FundingRequest,
  feeConfigs: RailFeeConfig[],
  now: Date,
): Promise<store.QuoteRow> {
  const payout = parseId("ExternalAccount", request.destination.accountId) !== null;
  const row = payout
    ? await fundedPayoutRow(tx, caller, request, feeConfigs, now)
    : await fundedDepositRow(tx, caller, request, feeConfigs, now);
  const instructions = paymentInstructions(request, row.id, row.total_sending_amount);
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
    return { ...(await createFundingQuoteIn(tx, caller, request, platform.fee_configs, now)), now };
  });
}
