import type { Executor, Tx } from "../core/db/db.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { MAX_AMOUNT } from "../core/money.js";
import { findAccountOrThrow } from "../customers/accounts.js";
import type { InternalAccountRow } from "../customers/accounts-store.js";
import { findExternalAccountOrThrow } from "../external-accounts/external-accounts.js";
import type { ExternalAccountRow } from "../external-accounts/store.js";
import type { RailFeeConfig } from "../platform/schemas.js";
import { type FeeSchedule, NO_FEE, priceTransfer } from "../rails/fees.js";
import { maxTransactionAmount } from "../rails/limits.js";
import { checkRailCap, type PayoutRail } from "../rails/rails.js";
import { requireActive } from "./active.js";
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

/** The withdrawal fee: the per-quote override, else the rail's feeConfigs entry (USD sources only). */
function railFee(override: number | undefined, feeConfigs: RailFeeConfig[], rail: PayoutRail): FeeSchedule {
  if (override !== undefined) return { variableRateBps: 0, fixedAmount: override };
  const config = feeConfigs.find((c) => c.rail === rail);
  return config
    ? { variableRateBps: config.variableRateBps ?? 0, fixedAmount: config.fixedAmount ?? 0 }
    : NO_FEE;
}

/** The common payout checks: the owner's external account (404), then the request's 400s. */
async function payoutAccounts(tx: Tx, caller: Caller, request: AccountTransferRequest) {
  const source = await findAccountOrThrow(tx, caller, request.source.accountId);
  const external = await ownedExternalAccount(tx, caller, source, request.destination.accountId);
  if (request.source.customerId !== undefined && request.source.customerId !== source.customer_id)
    throw invalidField("source.customerId", "is not the owner of the source account");
  if (request.immediatelyExecute && source.type === "EMBEDDED_WALLET")
    throw invalidField(
      "immediatelyExecute",
      "cannot be true for an EMBEDDED_WALLET source, which needs a signed execute",
    );
  return { source, external };
}

/** A bank payout's own checks: validated bank account, ACTIVE source, USD to USD. */
function checkBankPayout(
  request: AccountTransferRequest,
  source: InternalAccountRow,
  external: ExternalAccountRow,
) {
  requireValidated(external);
  requireActive(source);
  const receiving = request.destination.currency ?? external.currency;
  if (source.currency !== "USD" || receiving !== "USD" || source.type === "EMBEDDED_WALLET")
    throw new ApiError("NOT_IMPLEMENTED", {
      reason: `Payouts from a ${source.currency} ${source.type} account to ${receiving} are not built yet; only USD to a USD bank account is.`,
    });
}

/**
 * Prices a payout. To a wallet: wallet-payouts.ts, only when `wallets` (the regulatory threshold) is
 * given, else `501`. To a USD bank account: no pinned rail → ACH (AUTO); ACH_SAME_DAY is only ever
 * pinned (MANUAL). The ACH_SAME_DAY per-entry cap applies to the principal sent over the rail and
 * replaces the general single-transaction maximum for that rail; above it → `400 AMOUNT_OUT_OF_RANGE`.
 */
export async function newPayoutQuoteRow(
  tx: Tx,
  caller: Caller,
  request: AccountTransferRequest,
  feeConfigs: RailFeeConfig[],
  now: Date,
  wallets?: { verificationThreshold: number },
): Promise<store.QuoteRow> {
  const { source, external } = await payoutAccounts(tx, caller, request);
  if (external.account_type !== "USD_ACCOUNT") {
    if (!wallets) throw onlyBankAccounts(external);
    const threshold = wallets.verificationThreshold;
    return newWalletQuoteRow({ caller, request, source, external, threshold, now });
  }
  checkBankPayout(request, source, external);
  const pinned = request.destination.paymentRail as PayoutRail | undefined;
  const rail: PayoutRail = pinned ?? "ACH";
  const price = priceTransfer({
    lockedCurrencySide: request.lockedCurrencySide,
    lockedCurrencyAmount: request.lockedCurrencyAmount,
    platformFee: railFee(request.platformFeeOverride, feeConfigs, rail),
    maxTotalSendingAmount: rail === "ACH_SAME_DAY" ? MAX_AMOUNT : maxTransactionAmount("USD"),
  });
  checkRailCap(rail, price.totalReceivingAmount, now);
  return pendingQuoteRow({
    caller,
    request,
    source,
    destination: { id: external.id, currency: "USD", wire: { paymentRail: rail } },
    price,
    details: { paymentRail: rail, railSelectionMode: pinned ? "MANUAL" : "AUTO" },
    now,
  });
}
