import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ApiError } from "../../src/core/errors/api-error.js";
import { MAX_AMOUNT } from "../../src/core/money.js";
import { priceCrossCurrency } from "../../src/exchange-rates/pricing.js";
import { type FeeSchedule, feeOn } from "../../src/rails/fees.js";
import { sizes, timeoutFor } from "../sizes.js";

// Conversions are exact rationals: amount × units / 10^scale, scaled between the two currencies' minor units.
const rate = fc.record({
  units: fc.bigInt({ min: 1n, max: 10n ** 12n }),
  scale: fc.integer({ min: 0, max: 10 }),
});
const decimals = fc.record({
  sending: fc.constantFrom(0, 2, 6),
  receiving: fc.constantFrom(0, 2, 6),
});
const schedule: fc.Arbitrary<FeeSchedule> = fc.record({
  variableRateBps: fc.integer({ min: 0, max: 500 }),
  fixedAmount: fc.integer({ min: 0, max: 100_000 }),
});
const input = fc.record({
  rate,
  decimals,
  platformFee: schedule,
  lockedCurrencySide: fc.constantFrom("SENDING" as const, "RECEIVING" as const),
  lockedCurrencyAmount: fc.integer({ min: 1, max: 1_000_000_000_000 }),
});

/** net sending minor units in receiving minor units, as the exact fraction [numerator, denominator]. */
function exactlyReceived(
  net: bigint,
  r: { units: bigint; scale: number },
  d: { sending: number; receiving: number },
) {
  return [net * r.units * 10n ** BigInt(d.receiving), 10n ** BigInt(r.scale + d.sending)] as const;
}

type Input = typeof input extends fc.Arbitrary<infer T> ? T : never;

/** Runs `check` on every input that prices; the refusals are the catalogue's, never anything else. */
function forEveryPrice(check: (i: Input, price: ReturnType<typeof priceCrossCurrency>) => void) {
  fc.assert(
    fc.property(input, (i) => {
      let price: ReturnType<typeof priceCrossCurrency>;
      try {
        price = priceCrossCurrency({ ...i, maxTotalSendingAmount: MAX_AMOUNT });
      } catch (error) {
        expect(error).toBeInstanceOf(ApiError);
        expect(["AMOUNT_OUT_OF_RANGE", "TRANSACTION_SIZE_LIMIT_EXCEEDED"]).toContain(
          (error as ApiError).code,
        );
        return;
      }
      check(i, price);
    }),
    { numRuns: sizes.fxRuns },
  );
}

describe("FX rounding properties (priceCrossCurrency)", () => {
  test(
    "nothing is created across a conversion: totalReceivingAmount <= (totalSendingAmount - feesIncluded) x rate, exactly",
    () =>
      forEveryPrice((i, price) => {
        const [numerator, denominator] = exactlyReceived(
          BigInt(price.totalSendingAmount - price.feesIncluded),
          i.rate,
          i.decimals,
        );
        expect(BigInt(price.totalReceivingAmount) * denominator <= numerator).toBe(true);
      }),
    timeoutFor(sizes.fxRuns, 1),
  );

  test(
    "nothing is lost beyond the rounding: less than one receiving minor unit is dropped",
    () =>
      forEveryPrice((i, price) => {
        const [numerator, denominator] = exactlyReceived(
          BigInt(price.totalSendingAmount - price.feesIncluded),
          i.rate,
          i.decimals,
        );
        expect((BigInt(price.totalReceivingAmount) + 1n) * denominator > numerator).toBe(true);
      }),
    timeoutFor(sizes.fxRuns, 1),
  );

  test(
    "the receiving amount is never negative or zero, and fees never exceed what is sent",
    () =>
      forEveryPrice((_i, price) => {
        expect(price.totalReceivingAmount).toBeGreaterThanOrEqual(1);
        expect(price.feesIncluded).toBeGreaterThanOrEqual(0);
        expect(price.feesIncluded).toBeLessThan(price.totalSendingAmount);
      }),
    timeoutFor(sizes.fxRuns, 1),
  );

  test(
    "fees are charged once, on the total sent, in the sending currency, whichever side is locked",
    () =>
      forEveryPrice((i, price) => {
        expect(BigInt(price.feesIncluded)).toBe(feeOn(BigInt(price.totalSendingAmount), i.platformFee));
        expect(price.platformFeesIncluded).toBe(price.feesIncluded);
      }),
    timeoutFor(sizes.fxRuns, 1),
  );

  test(
    "RECEIVING delivers at least the locked amount, from the smallest total that does",
    () =>
      forEveryPrice((i, price) => {
        if (i.lockedCurrencySide !== "RECEIVING") return;
        expect(price.totalReceivingAmount).toBeGreaterThanOrEqual(i.lockedCurrencyAmount);
        // One minor unit less after fees would not deliver it.
        const [numerator, denominator] = exactlyReceived(
          BigInt(price.totalSendingAmount - price.feesIncluded - 1),
          i.rate,
          i.decimals,
        );
        expect(numerator / denominator < BigInt(i.lockedCurrencyAmount)).toBe(true);
      }),
    timeoutFor(sizes.fxRuns, 1),
  );

  test(
    "SENDING sends exactly the locked amount",
    () =>
      forEveryPrice((i, price) => {
        if (i.lockedCurrencySide === "SENDING") expect(price.totalSendingAmount).toBe(i.lockedCurrencyAmount);
      }),
    timeoutFor(sizes.fxRuns, 1),
  );
});
