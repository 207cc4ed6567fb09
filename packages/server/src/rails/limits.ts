import { currency } from "../core/money.js";

/**
 * Single-transaction maximum per sending currency, in major units: about USD 1,000,000 each, rounded
 * (docs/decisions.md "Quotes and fees"). Operator configuration; the interface leaves the values open.
 */
const maximumInMajorUnits: Record<string, number> = {
  USD: 1_000_000,
  EUR: 1_000_000,
  GBP: 1_000_000,
  SGD: 1_000_000,
  MXN: 20_000_000,
  BRL: 5_000_000,
  COP: 4_000_000_000,
  INR: 80_000_000,
  PHP: 50_000_000,
  USDC: 1_000_000,
  USDT: 1_000_000,
  USDB: 1_000_000,
  BTC: 10,
};

/** The configured single-transaction maximum for a currency, in its minor units. */
export function maxTransactionAmount(code: string): number {
  const { decimals } = currency(code);
  return (maximumInMajorUnits[code] ?? 1_000_000) * 10 ** decimals;
}
