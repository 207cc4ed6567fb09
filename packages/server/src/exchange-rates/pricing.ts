import { ApiError } from "../core/errors/api-error.js";
import { MAX_AMOUNT } from "../core/money.js";
import { type Price, type PriceInput, priceTransfer } from "../rails/fees.js";
import { convertMinorUnits, type Rate } from "./decimal.js";

export interface CrossCurrencyPriceInput extends PriceInput {
  /** Receiving major units per sending major unit, exact. */
  rate: Rate;
  decimals: { sending: number; receiving: number };
}

/**
 * Prices a cross-currency transfer: fees as for the same currency (on the total sent, in the sending
 * currency), then `totalReceivingAmount = floor((totalSendingAmount − feesIncluded) × rate)` in receiving
 * minor units (conventions §3.3), all in BigInt. RECEIVING locks the smallest amount after fees that
 * delivers at least `lockedCurrencyAmount`; the delivered amount is then that floor, which may exceed
 * the locked amount by less than one sending minor unit's worth.
 */
export function priceCrossCurrency(input: CrossCurrencyPriceInput): Price {
  const decimals = { from: input.decimals.sending, to: input.decimals.receiving };
  let price: Price;
  if (input.lockedCurrencySide === "SENDING") {
    price = priceTransfer(input);
  } else {
    // The smallest net N with floor(N × rate) >= locked: N = ceil(locked × 10^(scale+from) / (units × 10^to)).
    const numerator = BigInt(input.lockedCurrencyAmount) * 10n ** BigInt(input.rate.scale + decimals.from);
    const denominator = input.rate.units * 10n ** BigInt(decimals.to);
    const net = (numerator + denominator - 1n) / denominator;
    if (net > BigInt(input.maxTotalSendingAmount)) {
      throw new ApiError("TRANSACTION_SIZE_LIMIT_EXCEEDED", {
        reason: `Delivering ${input.lockedCurrencyAmount} needs more than the single-transaction maximum of ${input.maxTotalSendingAmount}.`,
      });
    }
    price = priceTransfer({ ...input, lockedCurrencyAmount: Number(net) });
  }
  const received = convertMinorUnits(
    price.totalSendingAmount - price.feesIncluded,
    input.rate,
    decimals,
    "down",
  );
  // Past the largest amount (conventions §1.4) a receiving amount is not exact as a JS number: refused.
  if (received > MAX_AMOUNT) {
    throw new ApiError("AMOUNT_OUT_OF_RANGE", {
      reason: `${price.totalSendingAmount - price.feesIncluded} after fees converts to more than ${MAX_AMOUNT} receiving minor units, the largest amount.`,
    });
  }
  if (received < 1) {
    throw new ApiError("AMOUNT_OUT_OF_RANGE", {
      reason: `${price.totalSendingAmount - price.feesIncluded} after fees converts to less than one receiving minor unit.`,
    });
  }
  return { ...price, totalReceivingAmount: received };
}
