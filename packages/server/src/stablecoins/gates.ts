import type { Tx } from "../core/db/db.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { currency, MAX_AMOUNT } from "../core/money.js";
import { findAccountOrThrow } from "../customers/accounts.js";
import type { InternalAccountRow } from "../customers/accounts-store.js";
import type { BurnSource, MintFundingSource, StablecoinOperationType } from "./schemas.js";
import type { StablecoinRow } from "./store.js";

/**
 * A request amount in the token's smallest units as minor units of the backing currency, computed with
 * BigInt so nothing rounds: undefined when it is not a whole number of minor units (a 6-decimal token's
 * "1" is a millionth of a dollar, finer than a cent). Example: "25000000" of a 6-decimal USD token is 2,500.
 */
export function minorUnitsOf(
  units: string,
  currencyDecimals: number,
  tokenDecimals: number,
): bigint | undefined {
  const value = BigInt(units);
  if (tokenDecimals <= currencyDecimals) return value * 10n ** BigInt(currencyDecimals - tokenDecimals);
  const scale = 10n ** BigInt(tokenDecimals - currencyDecimals);
  return value % scale === 0n ? value / scale : undefined;
}

/** A zero amount is a bad input whatever the stablecoin (checked with the schema, before any lookup). */
export function checkAmountShape(units: string): void {
  if (/^0+$/.test(units)) throw invalidField("amount", "must be greater than zero");
}

/**
 * The gates every issuer operation passes, in this order (docs/decisions.md, "Stablecoins"), then the
 * amount as minor units of the backing currency (the fiat leg's amount).
 */
export function checkOperable(coin: StablecoinRow, type: StablecoinOperationType, units: string): number {
  if (!coin.supported_operations.includes(type)) {
    throw new ApiError("STABLECOIN_OPERATION_NOT_SUPPORTED", {
      reason: `Stablecoin ${coin.id} does not support ${type}; it supports ${coin.supported_operations.join(", ")}.`,
    });
  }
  if (coin.enablement_status !== "ENABLED") {
    throw new ApiError("STABLECOIN_GRID_OPERATIONS_NOT_ENABLED", {
      reason: `Stablecoin ${coin.id} is ${coin.enablement_status}, not ENABLED for operations.`,
    });
  }
  if (!coin.provisioned) {
    throw new ApiError("STABLECOIN_NOT_PROVISIONED", {
      reason: `Stablecoin ${coin.id} is not provisioned for issuer operations yet.`,
    });
  }
  const minor = minorUnitsOf(units, currency(coin.backing_currency).decimals, coin.decimals);
  if (minor === undefined) {
    throw new ApiError("STABLECOIN_AMOUNT_NOT_REPRESENTABLE", {
      reason: `${units} units of ${coin.symbol} (${coin.decimals} decimals) is not a whole number of ${coin.backing_currency} minor units.`,
    });
  }
  if (minor > BigInt(MAX_AMOUNT)) {
    throw invalidField("amount", `must be at most ${MAX_AMOUNT} minor units of ${coin.backing_currency}`);
  }
  return Number(minor);
}

/** The internal account holding the fiat leg: the caller's, in the backing currency, usable. */
export async function fiatAccount(
  tx: Tx,
  caller: Caller,
  field: "fundingSource.accountId" | "destination.accountId",
  rawId: string,
  coin: StablecoinRow,
): Promise<InternalAccountRow> {
  const account = await findAccountOrThrow(tx, caller, rawId);
  if (account.currency !== coin.backing_currency) {
    throw invalidField(field, `must hold ${coin.backing_currency}, the currency backing ${coin.symbol}`);
  }
  if (account.status !== "ACTIVE") {
    throw new ApiError("CONFLICT", { reason: `Account ${account.id} is ${account.status}, not ACTIVE.` });
  }
  return account;
}

/**
 * The internal account a mint is paid from. The hosted WIRE and ACH funding sources need a bank at the
 * provider, and PROVIDER_INTERNAL_BALANCE a linked provider balance: the sandbox provider has neither.
 */
export function internalFundingAccount(source: MintFundingSource): string {
  if (source.type === "GRID_INTERNAL_ACCOUNT") return source.accountId;
  if (source.type === "PROVIDER_INTERNAL_BALANCE") {
    throw new ApiError("STABLECOIN_PROVIDER_SOURCE_NOT_LINKED", {
      reason: "No provider balance is linked to fund mints; fund from a GRID_INTERNAL_ACCOUNT.",
    });
  }
  throw invalidField(
    "fundingSource.type",
    "must be GRID_INTERNAL_ACCOUNT: the provider takes no bank funding",
    {
      enum: ["GRID_INTERNAL_ACCOUNT"],
    },
  );
}

/** Burns take tokens from the provider account's treasury (PROVIDER_INTERNAL_BALANCE) only. */
export function checkBurnSource(source: BurnSource): void {
  if (source.type !== "PROVIDER_INTERNAL_BALANCE") {
    throw new ApiError("STABLECOIN_BURN_SOURCE_NOT_SUPPORTED", {
      reason: `Burns take tokens from the provider account's treasury (PROVIDER_INTERNAL_BALANCE), not ${source.type}.`,
    });
  }
}
