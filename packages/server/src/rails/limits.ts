import { currency } from "../core/money.js";
import { corridorFor } from "./corridors.js";

/**
 * Single-transaction maximum of the withdrawal currencies that are not a payout corridor, in major
 * units. Fiat maximums live in the corridor table (corridors.ts); both are about USD 1,000,000 each,
 * rounded (docs/decisions.md "Quotes and fees"). Operator configuration; the interface leaves the values
 * open.
 */
const withdrawalMaximums: Record<string, number> = {
  USDC: 1_000_000,
  USDT: 1_000_000,
  USDB: 1_000_000,
  BTC: 10,
};

const DEFAULT_MAXIMUM = 1_000_000;

/** The configured single-transaction maximum for a currency, in its minor units. */
export function maxTransactionAmount(code: string): number {
  const { decimals } = currency(code);
  return (corridorFor(code)?.maximum ?? withdrawalMaximums[code] ?? DEFAULT_MAXIMUM) * 10 ** decimals;
}
