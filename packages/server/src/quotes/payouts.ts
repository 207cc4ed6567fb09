import type { Executor, Tx } from "../core/db/db.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { findAccountOrThrow } from "../customers/accounts.js";
import type { InternalAccountRow } from "../customers/accounts-store.js";
import { findExternalAccountOrThrow } from "../external-accounts/external-accounts.js";
import { checkLookupOf } from "../external-accounts/receiver-lookup.js";
import { walletAccountTypes } from "../external-accounts/schemas.js";
import type { ExternalAccountRow } from "../external-accounts/store.js";
import type { RailFeeConfig } from "../platform/schemas.js";
import { maxTransactionAmount } from "../rails/limits.js";
import { payoutTerms } from "../rails/payout-terms.js";
import { chooseRail } from "../rails/rail-selection.js";
import { requireActive } from "./active.js";
import { priceBetween } from "./pricing.js";
import { pendingQuoteRow } from "./quote-row.js";
import type { AccountTransferRequest } from "./request.js";
import type * as store from "./store.js";
import { newWalletQuoteRow } from "./wallet-payouts.js";

/**
 * An external account of the source account's owner (a customer's account pays out only to that
 * customer's external accounts, a platform account only to the platform's). Anything else reads as
 * unknown: `404 ACCOUNT_NOT_FOUND` (docs/decisions.md "Payouts").
 */
export async function ownedExternalAccount(
  db: Executor,
  caller: Caller,
  source: InternalAccountRow,
  rawId: string,
): Promise<ExternalAccountRow> {
  const owner = source.customer_id === null ? "platform" : "customer";
  const external = await findExternalAccountOrThrow(db, caller, rawId, owner);
  if (external.customer_id !== source.customer_id)
    throw new ApiError("ACCOUNT_NOT_FOUND", { reason: `No external account ${rawId}.` });
  return external;
}

/** A USD bank account of the source account's owner (the deprecated transfers use only these). */
export async function payoutDestination(
  db: Executor,
  caller: Caller,
  source: InternalAccountRow,
  rawId: string,
): Promise<ExternalAccountRow> {
  const external = await ownedExternalAccount(db, caller, source, rawId);
  if (external.account_type !== "USD_ACCOUNT") throw onlyBankAccounts(external);
  return external;
}

/** `501`: the deprecated transfers (and callers without a wallet threshold) handle bank accounts only. */
export const onlyBankAccounts = (external: ExternalAccountRow) =>
  new ApiError("NOT_IMPLEMENTED", {
    reason: `Transfers with ${external.account_type} external accounts are not built; only with USD_ACCOUNT ones (wallets receive payouts through POST /quotes).`,
  });

/** Bank validation (conventions §4.1): INACTIVE → 400 INVALID_BANK_ACCOUNT, PENDING → 409. */
export function requireValidated(external: ExternalAccountRow): void {
  if (external.status === "ACTIVE") return;
  if (external.status === "PENDING")
    throw new ApiError("BANK_ACCOUNT_VALIDATION_PENDING", {
      reason: `External account ${external.id} is still being validated; retry once it is ACTIVE.`,
    });
  throw new ApiError("INVALID_BANK_ACCOUNT", {
    reason: `External account ${external.id} is ${external.status}; it failed bank validation.`,
  });
}

/** The common payout checks: the owner's external account (404), then the request's 400s. */
async function payoutAccounts(tx: Tx, caller: Caller, request: AccountTransferRequest) {
  const source = await findAccountOrThrow(tx, caller, request.source.accountId);
  const external = await ownedExternalAccount(tx, caller, source, request.destination.accountId);
  if (request.lookupId !== undefined) await checkLookupOf(tx, caller, request.lookupId, external.id);
  if (request.source.customerId !== undefined && request.source.customerId !== source.customer_id)
    throw invalidField("source.customerId", "is not the owner of the source account");
  if (request.immediatelyExecute && source.type === "EMBEDDED_WALLET")
    throw invalidField(
      "immediatelyExecute",
      "cannot be true for an EMBEDDED_WALLET source, which needs a signed execute",
    );
  return { source, external };
}

/** The internal accounts a bank payout is sent from (issue 18 §3); a USDB EMBEDDED_WALLET too (§5, the off-ramp). */
const bankPayoutSources = new Set(["USD", "USDC", "USDB"]);

/** A bank payout's own checks: a validated bank account, an ACTIVE USD, USDC or USDB source. */
function checkBankPayout(
  request: AccountTransferRequest,
  source: InternalAccountRow,
  external: ExternalAccountRow,
) {
  requireValidated(external);
  requireActive(source);
  const requested = request.destination.currency;
  if (requested !== undefined && requested !== external.currency)
    throw invalidField(
      "destination.currency",
      `must be ${external.currency}, the currency of external account ${external.id}`,
    );
  if (request.platformFeeOverride !== undefined && source.currency !== "USD")
    throw invalidField("platformFeeOverride", "platform fees apply only to USD sources");
  if (!bankPayoutSources.has(source.currency))
    throw new ApiError("NOT_IMPLEMENTED", {
      reason: `Payouts from a ${source.currency} ${source.type} account are not built yet; from USD, USDC and USDB internal accounts they are.`,
    });
}

/** Where a quote's money comes from: an internal account, or money arriving from outside (REALTIME_FUNDING). */
export type QuoteSourceRef = Parameters<typeof pendingQuoteRow>[0]["source"];

/**
 * Prices a payout to a bank account of any corridor (issue 18 §3): the rail chosen by the corridor table
 * (rails/rail-selection.ts; pinned → MANUAL, else the first the account can take → AUTO), its fee from
 * `feeConfigs`, and across currencies the cached rate. The rail is chosen once more with the amount that
 * goes over it, since a capped rail may be passed over (and a pinned one refused) only then; the price is
 * the chosen rail's. Above the receiving corridor's maximum → `400 TRANSACTION_SIZE_LIMIT_EXCEEDED`. The
 * source's own checks are the caller's (checkBankPayout; a realtime-funded payout's in quotes/funding.ts).
 */
export async function bankPayoutRow(
  tx: Tx,
  caller: Caller,
  request: Pick<
    AccountTransferRequest,
    | "destination"
    | "lockedCurrencySide"
    | "lockedCurrencyAmount"
    | "platformFeeOverride"
    | "description"
    | "remittanceInformation"
    | "purposeOfPayment"
  >,
  accounts: { source: QuoteSourceRef; external: ExternalAccountRow },
  feeConfigs: RailFeeConfig[],
  now: Date,
): Promise<store.QuoteRow> {
  const { source, external } = accounts;
  const receiving = external.currency;
  const account = { ...external.account_info, accountType: external.account_type };
  const pinned = request.destination.paymentRail;
  const pair = { sending: source.currency, receiving };
  const priceOver = (rail: string) =>
    priceBetween(tx, caller, pair, request, payoutTerms(request, source.currency, feeConfigs, rail), now);
  let choice = chooseRail({ currency: receiving, account, pinned, now });
  let priced = await priceOver(choice.rail);
  const amount = priced.price.totalReceivingAmount;
  const final = chooseRail({ currency: receiving, account, pinned, amount, now });
  if (final.rail !== choice.rail) {
    choice = final;
    priced = await priceOver(final.rail);
  }
  const maximum = maxTransactionAmount(receiving);
  if (choice.rail !== "ACH_SAME_DAY" && priced.price.totalReceivingAmount > maximum)
    throw new ApiError("TRANSACTION_SIZE_LIMIT_EXCEEDED", {
      reason: `totalReceivingAmount ${priced.price.totalReceivingAmount} exceeds the ${receiving} corridor's single-transaction maximum of ${maximum}.`,
    });
  const row = pendingQuoteRow({
    caller,
    request,
    source,
    destination: { id: external.id, currency: receiving, wire: { paymentRail: choice.rail } },
    price: priced.price,
    details: { paymentRail: choice.rail, railSelectionMode: choice.railSelectionMode },
    now,
  });
  return { ...row, exchange_rate: priced.exchangeRate };
}

/** A bank payout from an internal account: its checks (checkBankPayout), then bankPayoutRow. */
async function newBankPayoutQuoteRow(
  tx: Tx,
  caller: Caller,
  request: AccountTransferRequest,
  accounts: { source: InternalAccountRow; external: ExternalAccountRow },
  feeConfigs: RailFeeConfig[],
  now: Date,
): Promise<store.QuoteRow> {
  checkBankPayout(request, accounts.source, accounts.external);
  return bankPayoutRow(tx, caller, request, accounts, feeConfigs, now);
}

/** External account types that are crypto wallets (the rest are bank accounts of some corridor). */
const walletTypes = new Set<string>([...walletAccountTypes, "LIGHTNING"]);

/**
 * Prices a payout. To a wallet: wallet-payouts.ts, only when `wallets` (the regulatory threshold) is
 * given, else `501`. To a bank account of any corridor: newBankPayoutQuoteRow.
 */
export async function newPayoutQuoteRow(
  tx: Tx,
  caller: Caller,
  request: AccountTransferRequest,
  feeConfigs: RailFeeConfig[],
  now: Date,
  wallets?: { verificationThreshold: number },
): Promise<store.QuoteRow> {
  const accounts = await payoutAccounts(tx, caller, request);
  const { source, external } = accounts;
  if (!walletTypes.has(external.account_type))
    return newBankPayoutQuoteRow(tx, caller, request, accounts, feeConfigs, now);
  if (!wallets) throw onlyBankAccounts(external);
  const threshold = wallets.verificationThreshold;
  return newWalletQuoteRow({ caller, request, source, external, threshold, now });
}
