import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { basisPointsOf, feeOn, priceTransfer } from "./fees.js";

const MAX = 100_000_000;

describe("basisPointsOf: round half up to the minor unit", () => {
  test.each([
    [1_000n, 25, 3n], // 2.5
    [999n, 25, 2n], // 2.4975
    [1_001n, 25, 3n], // 2.5025
    [200n, 25, 1n], // 0.5
    [199n, 25, 0n], // 0.4975
    [10_000n, 10_000, 10_000n],
    [9_000_000_000_000_000n, 1, 900_000_000_000n],
  ])("%s at %s bps = %s", (amount, bps, expected) => {
    expect(basisPointsOf(amount, bps)).toBe(expected);
  });
});

describe("priceTransfer", () => {
  const schedule = fc.record({
    variableRateBps: fc.integer({ min: 0, max: 9_999 }),
    fixedAmount: fc.integer({ min: 0, max: 10_000 }),
  });

  test("RECEIVING delivers exactly the locked amount, at the smallest total that does", () => {
    fc.assert(
      fc.property(schedule, fc.integer({ min: 1, max: 10_000_000 }), (platformFee, amount) => {
        let price: ReturnType<typeof priceTransfer>;
        try {
          price = priceTransfer({
            lockedCurrencySide: "RECEIVING",
            lockedCurrencyAmount: amount,
            platformFee,
            maxTotalSendingAmount: 9e15,
          });
        } catch (error) {
          expect(error).toMatchObject({ code: "AMOUNT_OUT_OF_RANGE" });
          return false;
        }
        const total = BigInt(price.totalSendingAmount);
        expect(price.totalReceivingAmount).toBe(amount);
        expect(total - feeOn(total, platformFee)).toBe(BigInt(amount));
        expect(total - 1n - feeOn(total - 1n, platformFee)).toBeLessThan(BigInt(amount));
        return true;
      }),
    );
  });

  test("locking either side of the same transfer costs the same", () => {
    fc.assert(
      fc.property(schedule, fc.integer({ min: 1, max: 10_000_000 }), (platformFee, amount) => {
        const input = { platformFee, maxTotalSendingAmount: 9e15 };
        let sending: ReturnType<typeof priceTransfer>;
        try {
          sending = priceTransfer({ ...input, lockedCurrencySide: "SENDING", lockedCurrencyAmount: amount });
        } catch {
          return true;
        }
        const receiving = priceTransfer({
          ...input,
          lockedCurrencySide: "RECEIVING",
          lockedCurrencyAmount: sending.totalReceivingAmount,
        });
        expect(receiving.totalSendingAmount).toBeLessThanOrEqual(sending.totalSendingAmount);
        expect(receiving.totalSendingAmount - receiving.feesIncluded).toBe(sending.totalReceivingAmount);
        return true;
      }),
    );
  });

  test("fees consuming the whole SENDING amount -> AMOUNT_OUT_OF_RANGE", () => {
    expect(() =>
      priceTransfer({
        lockedCurrencySide: "SENDING",
        lockedCurrencyAmount: 100,
        platformFee: { variableRateBps: 0, fixedAmount: 100 },
        maxTotalSendingAmount: MAX,
      }),
    ).toThrow(expect.objectContaining({ code: "AMOUNT_OUT_OF_RANGE" }));
  });

  test("a RECEIVING total beyond every representable amount -> TRANSACTION_SIZE_LIMIT_EXCEEDED, not a rounding error", () => {
    expect(() =>
      priceTransfer({
        lockedCurrencySide: "RECEIVING",
        lockedCurrencyAmount: 9_000_000_000_000_000,
        platformFee: { variableRateBps: 9_999, fixedAmount: 0 },
        maxTotalSendingAmount: MAX,
      }),
    ).toThrow(expect.objectContaining({ code: "TRANSACTION_SIZE_LIMIT_EXCEEDED" }));
  });
});
