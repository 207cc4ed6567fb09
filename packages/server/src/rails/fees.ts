import { ApiError } from "../core/errors/api-error.js";

/** A fee schedule: a rate in basis points of the total sent, plus a fixed amount (minor units). */
export interface FeeSchedule {
  variableRateBps: number;
  fixedAmount: number;
}

export const NO_FEE: FeeSchedule = { variableRateBps: 0, fixedAmount: 0 };

export interface PriceInput {
  lockedCurrencySide: "SENDING" | "RECEIVING";
  lockedCurrencyAmount: number;
  /** The platform fee; `NO_FEE` where none applies. */
  platformFee: FeeSchedule;
  /** The configured single-transaction maximum for the sending currency (minor units). */
  maxTotalSendingAmount: number;
}

export interface Price {
  totalSendingAmount: number;
  totalReceivingAmount: number;
  feesIncluded: number;
  platformFeesIncluded: number;
}

const BPS = 10_000n;

/** amount × bps / 10,000, rounded half up to the minor unit (amounts are never negative here). */
export function basisPointsOf(amount: bigint, bps: number): bigint {
  return (amount * BigInt(bps) * 2n + BPS) / (2n * BPS);
}

/** The fee charged on a transfer whose total sent (fees included) is `total`. */
export function feeOn(total: bigint, schedule: FeeSchedule): bigint {
  return BigInt(schedule.fixedAmount) + basisPointsOf(total, schedule.variableRateBps);
}

/**
 * The smallest total whose remainder after fees is `received`. `total − feeOn(total)` never decreases
 * and grows by at most 1 per unit (the rate is at most 100%), so a binary search lands on it exactly.
 */
function totalDelivering(received: bigint, schedule: FeeSchedule): bigint | null {
  if (schedule.variableRateBps >= 10_000) return null;
  const net = (total: bigint) => total - feeOn(total, schedule);
  let low = 0n;
  let high =
    ((received + BigInt(schedule.fixedAmount) + 1n) * BPS) / (BPS - BigInt(schedule.variableRateBps)) + 2n;
  while (low < high) {
    const mid = (low + high) / 2n;
    if (net(mid) >= received) high = mid;
    else low = mid + 1n;
  }
  return low;
}

/**
 * Prices a same-currency transfer. The fee is charged on the total sent whichever side is locked, so
 * either side of the same transfer prices the same. Fees that leave nothing to deliver (SENDING: fees
 * at or above the amount; RECEIVING: a 100% rate) are `400 AMOUNT_OUT_OF_RANGE`; a total above the
 * configured maximum is `400 TRANSACTION_SIZE_LIMIT_EXCEEDED`.
 */
export function priceTransfer(input: PriceInput): Price {
  const locked = BigInt(input.lockedCurrencyAmount);
  const total = input.lockedCurrencySide === "SENDING" ? locked : totalDelivering(locked, input.platformFee);
  if (total === null) {
    throw new ApiError("AMOUNT_OUT_OF_RANGE", {
      reason: "A platform fee rate of 100% leaves nothing to deliver.",
    });
  }
  const fee = feeOn(total, input.platformFee);
  if (fee >= total) {
    throw new ApiError("AMOUNT_OUT_OF_RANGE", {
      reason: `Fees of ${fee} are not smaller than the amount of ${total}; nothing would be delivered.`,
    });
  }
  if (total > BigInt(input.maxTotalSendingAmount)) {
    throw new ApiError("TRANSACTION_SIZE_LIMIT_EXCEEDED", {
      reason: `totalSendingAmount ${total} exceeds the single-transaction maximum of ${input.maxTotalSendingAmount}.`,
    });
  }
  // Internal transfers carry no service fee of their own, so every fee here is a platform fee.
  return {
    totalSendingAmount: Number(total),
    totalReceivingAmount: Number(total - fee),
    feesIncluded: Number(fee),
    platformFeesIncluded: Number(fee),
  };
}
