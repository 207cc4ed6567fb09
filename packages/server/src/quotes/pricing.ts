import type { Tx } from "../core/db/db.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { currency } from "../core/money.js";
import { priceCrossCurrency } from "../exchange-rates/pricing.js";
import { cachedRate } from "../exchange-rates/rates.js";
import type { RailFeeConfig } from "../platform/schemas.js";
import { type FeeSchedule, NO_FEE, type Price, priceTransfer } from "../rails/fees.js";
import { maxTransactionAmount } from "../rails/limits.js";
import type { AccountTransferRequest } from "./request.js";

/** The platform fee of an internal transfer: the override, else the INTERNAL rail's config; USD sources only. */
export function platformFeeFor(
  sendingCurrency: string,
  override: number | undefined,
  feeConfigs: RailFeeConfig[],
): FeeSchedule {
  if (sendingCurrency !== "USD") return NO_FEE;
  if (override !== undefined) return { variableRateBps: 0, fixedAmount: override };
  const config = feeConfigs.find((c) => c.rail === "INTERNAL");
  return config
    ? { variableRateBps: config.variableRateBps ?? 0, fixedAmount: config.fixedAmount ?? 0 }
    : NO_FEE;
}

/** What a quote is priced under: the platform fee and the single-transaction maximum of its sending side. */
export interface PriceTerms {
  platformFee: FeeSchedule;
  maxTotalSendingAmount: number;
}

/** The terms of a transfer between internal accounts: the INTERNAL fee config, the currency's maximum. */
export const internalTerms = (
  sending: string,
  override: number | undefined,
  feeConfigs: RailFeeConfig[],
): PriceTerms => ({
  platformFee: platformFeeFor(sending, override, feeConfigs),
  maxTotalSendingAmount: maxTransactionAmount(sending),
});

/**
 * Prices `lockedCurrencyAmount` from `sending` to `receiving` under `terms`: the same currency as is;
 * across currencies at the platform's cached rate (exchange-rates/rates.ts, the one `GET /exchange-rates`
 * shows), or `400 QUOTE_RATE_UNAVAILABLE`.
 */
export async function priceBetween(
  tx: Tx,
  caller: Caller,
  pair: { sending: string; receiving: string },
  request: Pick<AccountTransferRequest, "lockedCurrencySide" | "lockedCurrencyAmount">,
  terms: PriceTerms,
  now: Date,
): Promise<{ price: Price; exchangeRate: number }> {
  const input = {
    lockedCurrencySide: request.lockedCurrencySide,
    lockedCurrencyAmount: request.lockedCurrencyAmount,
    ...terms,
  };
  if (pair.sending === pair.receiving) return { price: priceTransfer(input), exchangeRate: 1 };
  const rate = await cachedRate(
    tx,
    caller.platformId,
    { source: pair.sending, destination: pair.receiving },
    now,
  );
  if (!rate)
    throw new ApiError("QUOTE_RATE_UNAVAILABLE", {
      reason: `No ${pair.sending} to ${pair.receiving} exchange rate is available now.`,
    });
  const decimals = { sending: currency(pair.sending).decimals, receiving: currency(pair.receiving).decimals };
  const price = priceCrossCurrency({ ...input, rate: rate.rate, decimals });
  return { price, exchangeRate: Number(rate.text) };
}
