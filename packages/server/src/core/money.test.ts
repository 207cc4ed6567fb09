import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ApiError } from "./errors/api-error.js";
import { currency, MAX_AMOUNT, money, parseMinorUnits } from "./money.js";

describe("money (conventions §1.4)", () => {
  test("USD metadata is code USD, United States Dollar, $, 2 decimals", () => {
    expect(currency("USD")).toEqual({ code: "USD", name: "United States Dollar", symbol: "$", decimals: 2 });
  });

  test("an unknown currency is 400 INVALID_CURRENCY", () => {
    expect(() => currency("XYZ")).toThrowError(ApiError);
    try {
      currency("XYZ");
    } catch (error) {
      expect((error as ApiError).code).toBe("INVALID_CURRENCY");
    }
  });

  test("amounts are integers of minor units within ±9,000,000,000,000,000", () => {
    expect(money(MAX_AMOUNT, "USD").amount).toBe(MAX_AMOUNT);
    expect(money(-MAX_AMOUNT, "USD").amount).toBe(-MAX_AMOUNT);
    expect(() => money(MAX_AMOUNT + 1, "USD")).toThrow(RangeError);
    expect(() => money(1.5, "USD")).toThrow(RangeError);
  });

  test("int8 values parse exactly from either driver's form (bigint or decimal string)", () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX_AMOUNT, max: MAX_AMOUNT }), (n) => {
        expect(parseMinorUnits(BigInt(n))).toBe(n);
        expect(parseMinorUnits(String(n))).toBe(n);
      }),
    );
    expect(() => parseMinorUnits("9007199254740993")).toThrow(RangeError);
  });
});
