import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import type { InternalAccountRow } from "../customers/accounts-store.js";
import type { ExternalAccountRow } from "../external-accounts/store.js";
import { NO_FEE, priceTransfer } from "../rails/fees.js";
import { maxTransactionAmount } from "../rails/limits.js";
import { requireActive } from "./active.js";
import { pendingQuoteRow } from "./quote-row.js";
import type { AccountTransferRequest } from "./request.js";
import type * as store from "./store.js";

/** A wallet payout settles on chain this long after execution (sandbox; docs/decisions.md "Wallet payouts"). */
export const ON_CHAIN_SETTLEMENT_MS = 10_000;

/** USD-pegged stablecoins with 6 decimals: one US cent is 10,000 of their minor units, exactly. */
const stablecoins = new Set(["USDC", "USDT", "USDB"]);
const UNITS_PER_CENT = 10_000;

/** The network an on-chain transfer to each wallet type travels on (conventions §3.4). */
const networks: Record<string, string> = {
  ETHEREUM_WALLET: "ETHEREUM",
  BASE_WALLET: "BASE",
  POLYGON_WALLET: "POLYGON",
  PLASMA_WALLET: "PLASMA",
  SOLANA_WALLET: "SOLANA",
  TRON_WALLET: "TRON",
  SPARK_WALLET: "SPARK",
};

/**
 * The network of a wallet that can receive a payout: a stablecoin wallet. BTC wallets (Bitcoin,
 * Lightning, Spark holding BTC) answer `501 NOT_IMPLEMENTED`, since there is no BTC pricing yet.
 */
export function walletNetwork(external: ExternalAccountRow): string {
  const network = networks[external.account_type];
  if (network === undefined || !stablecoins.has(external.currency))
    throw new ApiError("NOT_IMPLEMENTED", {
      reason: `Payouts to ${external.currency} ${external.account_type} external accounts are not built yet: there is no BTC pricing; only USDC, USDT and USDB wallets receive payouts.`,
    });
  return network;
}

/**
 * Whether a wallet may receive a payout whose principal is `usdCents` (conventions §4.1): ACTIVE always;
 * PENDING_OWNERSHIP_VERIFICATION up to the regulatory threshold; UNVERIFIED (a failed ownership
 * attempt) never. Those are `400 EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED`; any other status is `409`.
 */
export function requireWalletPayable(
  external: ExternalAccountRow,
  usdCents: number,
  threshold: number,
): void {
  const { id, status } = external;
  if (status === "ACTIVE" || (status === "PENDING_OWNERSHIP_VERIFICATION" && usdCents <= threshold)) return;
  if (status === "PENDING_OWNERSHIP_VERIFICATION")
    throw new ApiError("EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED", {
      reason: `A payout of ${usdCents} USD cents is above the regulatory threshold of ${threshold} USD cents for external account ${id}, which is ${status}; verify its ownership first.`,
    });
  if (status === "UNVERIFIED")
    throw new ApiError("EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED", {
      reason: `External account ${id} is UNVERIFIED after a failed ownership verification, so it receives no payouts at any amount (threshold ${threshold} USD cents); start a new challenge.`,
    });
  throw new ApiError("CONFLICT", {
    reason: `External account ${id} is ${status}; it cannot receive payouts.`,
  });
}

/**
 * The principal of a wallet payout quote (what reaches the wallet, before conversion), in the sending
 * currency's minor units: US cents from a USD account, 6-decimal units from a USDB embedded wallet.
 */
export function usdPrincipal(quote: store.QuoteRow): number {
  return quote.total_sending_amount - quote.fees_included;
}

/** The same principal in US cents (rounded up), what the regulatory threshold is compared with. */
export function principalUsdCents(quote: store.QuoteRow): number {
  const principal = usdPrincipal(quote);
  return quote.sending_currency === "USD" ? principal : Math.ceil(principal / UNITS_PER_CENT);
}

/** What a wallet payout delivers in US cents (rounded up): its USD-pegged stablecoin amount at the peg. */
export const deliveredUsdCents = (stablecoinAmount: number) => Math.ceil(stablecoinAmount / UNITS_PER_CENT);

/** Off-ramps (issue 18 §5): a USDB embedded wallet pays out to USDC and USDB wallets at the peg, 1:1. */
const offRampWallets = new Set(["USDC", "USDT", "USDB"]);
const isOffRamp = (source: InternalAccountRow) =>
  source.type === "EMBEDDED_WALLET" && source.currency === "USDB";

/** 400s that need the wallet: no payment rail on chain, and the wallet's own currency only. */
function checkWalletRequest(
  request: AccountTransferRequest,
  source: InternalAccountRow,
  external: ExternalAccountRow,
): void {
  if (request.destination.paymentRail !== undefined)
    throw invalidField("destination.paymentRail", "applies only to payouts to bank accounts, not to wallets");
  const requested = request.destination.currency;
  if (requested !== undefined && requested !== external.currency)
    throw invalidField(
      "destination.currency",
      `must be ${external.currency}, the currency of external account ${external.id}`,
    );
  if (isOffRamp(source)) {
    if (request.platformFeeOverride !== undefined)
      throw invalidField("platformFeeOverride", "platform fees apply only to USD sources");
    return;
  }
  if (request.lockedCurrencySide === "RECEIVING" && request.lockedCurrencyAmount % UNITS_PER_CENT !== 0)
    throw invalidField(
      "lockedCurrencyAmount",
      `must be a multiple of ${UNITS_PER_CENT} (a whole US cent of ${external.currency}) when RECEIVING is locked`,
    );
}

/**
 * Prices a USD → stablecoin payout to a wallet at exchangeRate 1: the USD principal in cents times
 * 10,000, exact. No feeConfigs entry applies (there is no on-chain rail); platformFeeOverride does.
 * Above the regulatory threshold a wallet that is not ACTIVE is refused (requireWalletPayable). From a
 * USDB embedded wallet: offRampQuoteRow.
 */
export function newWalletQuoteRow(input: {
  caller: Caller;
  request: AccountTransferRequest;
  source: InternalAccountRow;
  external: ExternalAccountRow;
  threshold: number;
  now: Date;
}): store.QuoteRow {
  const { request, source, external } = input;
  walletNetwork(external);
  checkWalletRequest(request, source, external);
  requireActive(source);
  if (isOffRamp(source)) return offRampQuoteRow(input);
  if (source.currency !== "USD" || source.type !== "INTERNAL_FIAT")
    throw new ApiError("NOT_IMPLEMENTED", {
      reason: `Payouts to wallets from a ${source.currency} ${source.type} account are not built yet; only from USD INTERNAL_FIAT accounts and USDB EMBEDDED_WALLET ones.`,
    });
  const receiving = request.lockedCurrencySide === "RECEIVING";
  const override = request.platformFeeOverride;
  const price = priceTransfer({
    lockedCurrencySide: request.lockedCurrencySide,
    lockedCurrencyAmount: receiving
      ? request.lockedCurrencyAmount / UNITS_PER_CENT
      : request.lockedCurrencyAmount,
    platformFee: override === undefined ? NO_FEE : { variableRateBps: 0, fixedAmount: override },
    maxTotalSendingAmount: maxTransactionAmount("USD"),
  });
  requireWalletPayable(external, price.totalReceivingAmount, input.threshold);
  return pendingQuoteRow({
    caller: input.caller,
    request,
    source,
    destination: { id: external.id, currency: external.currency, wire: {} },
    price: { ...price, totalReceivingAmount: price.totalReceivingAmount * UNITS_PER_CENT },
    now: input.now,
  });
}

/**
 * An off-ramp to a wallet (issue 18 §5): USDB from an embedded wallet to a USDC, USDT or USDB wallet at the peg,
 * exchangeRate 1, both sides in 6-decimal units, so the amounts are equal and exact. No fee (platform
 * fees apply to USD sources only; there is no on-chain rail fee). The single-transaction maximum is
 * USDB's. Wallets holding BTC → `501 NOT_IMPLEMENTED` (no BTC pricing).
 */
function offRampQuoteRow(input: {
  caller: Caller;
  request: AccountTransferRequest;
  source: InternalAccountRow;
  external: ExternalAccountRow;
  threshold: number;
  now: Date;
}): store.QuoteRow {
  const { request, source, external } = input;
  if (!offRampWallets.has(external.currency))
    throw new ApiError("NOT_IMPLEMENTED", {
      reason: `Payouts from a USDB EMBEDDED_WALLET to ${external.currency} wallets are not built yet; only to USDC, USDT and USDB wallets.`,
    });
  const price = priceTransfer({
    lockedCurrencySide: request.lockedCurrencySide,
    lockedCurrencyAmount: request.lockedCurrencyAmount,
    platformFee: NO_FEE,
    maxTotalSendingAmount: maxTransactionAmount(source.currency),
  });
  requireWalletPayable(external, Math.ceil(price.totalReceivingAmount / UNITS_PER_CENT), input.threshold);
  return pendingQuoteRow({
    caller: input.caller,
    request,
    source,
    destination: { id: external.id, currency: external.currency, wire: {} },
    price,
    now: input.now,
  });
}
