import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { maxTransactionAmount } from "./limits.js";

describe("single-transaction maximum (docs/decisions.md 'Quotes and fees'), now from the corridor table", () => {
  test.each([
    ["USD", 100_000_000],
    ["EUR", 100_000_000],
    ["GBP", 100_000_000],
    ["SGD", 100_000_000],
    ["MXN", 2_000_000_000],
    ["BRL", 500_000_000],
    ["COP", 400_000_000_000],
    ["INR", 8_000_000_000],
    ["PHP", 5_000_000_000],
    ["USDC", 1_000_000_000_000],
    ["USDT", 1_000_000_000_000],
    ["USDB", 1_000_000_000_000],
    ["BTC", 1_000_000_000],
  ])("%s: %i minor units, as before", (code, minorUnits) => {
    expect(maxTransactionAmount(code)).toBe(minorUnits);
  });

  test.each([
    ["KES", 13_000_000_000],
    ["UGX", 3_700_000_000], // no minor unit
    ["XOF", 600_000_000],
    ["IDR", 1_600_000_000_000],
  ])("a new corridor, %s: %i minor units", (code, minorUnits) => {
    expect(maxTransactionAmount(code)).toBe(minorUnits);
  });

  test("an unknown currency -> 400 INVALID_CURRENCY", () => {
    expect(() => maxTransactionAmount("JPY")).toThrow(expect.objectContaining({ code: "INVALID_CURRENCY" }));
  });
});

test("rails/ is a leaf module: it imports only ../core/** and npm packages", () => {
  const directory = new URL(".", import.meta.url);
  const specifiers = readdirSync(directory)
    .filter((file) => file.endsWith(".ts"))
    .flatMap((file) =>
      [
        ...readFileSync(new URL(file, directory), "utf8").matchAll(
          /^\s*(?:import|export)[^;]*?from\s+"([^"]+)"/gms,
        ),
      ].map((match) => `${file}: ${match[1]}`),
    );
  expect(specifiers.length).toBeGreaterThan(10);
  const outside = specifiers.filter((entry) => {
    const specifier = entry.split(": ")[1] ?? "";
    return specifier.startsWith("../") ? !specifier.startsWith("../core/") : false;
  });
  expect(outside).toEqual([]);
  expect(specifiers.filter((entry) => (entry.split(": ")[1] ?? "").startsWith("/"))).toEqual([]);
});
