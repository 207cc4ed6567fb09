import { describe, expect, test } from "vitest";
import {
  convertMinorUnits,
  divideToSignificant,
  formatRate,
  parseRate,
} from "../../src/exchange-rates/decimal.js";
import { sandboxRateSource } from "../../src/exchange-rates/sandbox-source.js";

describe("exact decimal rates", () => {
  test.each([
    ["0.92", "0.92"],
    ["17.050", "17.05"],
    ["3950", "3950"],
    ["1e-7", "0.0000001"],
    ["2.5e3", "2500"],
  ])("parses %s and writes it back as %s", (text, written) => {
    expect(formatRate(parseRate(text))).toBe(written);
  });

  test.each([["0"], ["-1"], ["1,5"], [""], ["abc"]])("refuses %j", (text) => {
    expect(() => parseRate(text)).toThrow(RangeError);
  });

  test("division rounds half up to 10 significant digits", () => {
    expect(formatRate(divideToSignificant(2n, 3n))).toBe("0.6666666667");
    expect(formatRate(divideToSignificant(3950n, 1n))).toBe("3950");
    expect(formatRate(divideToSignificant(1n, 3950n))).toBe("0.000253164557");
  });

  test("conversion to receiving minor units is floor((amount) × rate) without float drift", () => {
    // 0.1 + 0.2 style drift would make 29 × 0.57 × 100 = 1652.9999…; BigInt gives exactly 1653.
    expect(convertMinorUnits(2_900, parseRate("0.57"), { from: 2, to: 2 }, "down")).toBe(1_653);
    expect(convertMinorUnits(1, parseRate("0.92"), { from: 2, to: 2 }, "down")).toBe(0);
    expect(convertMinorUnits(1, parseRate("0.92"), { from: 2, to: 2 }, "up")).toBe(1);
    // USD cents to a 6-decimal stablecoin at 1: one cent is 10,000 units.
    expect(convertMinorUnits(1, parseRate("1"), { from: 2, to: 6 }, "down")).toBe(10_000);
  });

  test("the sandbox source is deterministic and moves at most ±0.50 % around the mid rate", () => {
    const at = new Date("2027-01-13T18:00:00.000Z");
    const rate = sandboxRateSource.rate("USD", "MXN", at);
    expect(rate).toEqual(sandboxRateSource.rate("USD", "MXN", new Date(at.getTime() + 60_000)));
    const value = Number(formatRate(rate ?? { units: 0n, scale: 0 }));
    expect(value).toBeGreaterThanOrEqual(17.05 * 0.995);
    expect(value).toBeLessThanOrEqual(17.05 * 1.005);
    expect(sandboxRateSource.rate("USD", "BTC", at)).toBeNull();
  });
});
