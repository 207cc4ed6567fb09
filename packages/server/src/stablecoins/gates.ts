import type { Tx } from "../core/db/db.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { currency } from "../core/money.js";
import { findAccountOrThrow } from "../customers/accounts.js";
import type { InternalAccountRow } from "../customers/accounts-store.js";
import type { StablecoinOperationType } from "./schemas.js";
import type { StablecoinRow } from "./store.js";

/**
 * Whether an amount in the backing currency's minor units is a whole number of the token's smallest
 * units: always when the token has at least the currency's decimals, else only multiples of the gap.
 */
export function isRepresentable(amount: number, currencyDecimals: number, tokenDecimals: number): boolean {
  return tokenDecimals >= currencyDecimals || amount % 10 ** (currencyDecimals - tokenDecimals) === 0;
}

/** The gates every issuer operation passes, in this order (docs/decisions/stablecoins.md). */
export function checkOperable(coin: StablecoinRow, type: StablecoinOperationType, amount: number): void {
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
  if (!isRepresentable(amount, currency(coin.backing_currency).decimals, coin.decimals)) {
    throw new ApiError("STABLECOIN_AMOUNT_NOT_REPRESENTABLE", {
      reason: `${amount} minor units of ${coin.backing_currency} is finer than ${coin.symbol}'s ${coin.decimals} decimals.`,
    });
  }
}

/** The internal account holding the fiat leg: the caller's, in the backing currency, usable. */
export async function fiatAccount(
  tx: Tx,
  caller: Caller,
  field: "sourceAccountId" | "destinationAccountId",
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
