/**
 * Money on statements stays in integer minor units (house style rule 9): sums are exact (BigInt, then
 * checked back into a safe integer) and formatting splits the digits of the integer, never dividing.
 */
import type { Currency } from "../types/index.js";

/** Σ values, exactly; a total outside the safe-integer range is a RangeError rather than a rounded number. */
export function exactSum(values: Iterable<number>): number {
  let total = 0n;
  for (const value of values) {
    if (!Number.isSafeInteger(value)) throw new RangeError(`Not an integer amount of minor units: ${value}`);
    total += BigInt(value);
  }
  const result = Number(total);
  if (!Number.isSafeInteger(result)) throw new RangeError(`Sum out of the safe-integer range: ${total}`);
  return result;
}

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * `123456` USD → `$1,234.56`; `-5` USD → `-$0.05`; `1500000` USDC (6 decimals) → `1.500000 USDC`. The symbol
 * leads when it differs from the code, else the code follows.
 */
export function formatMoney(amount: number, currency: Currency): string {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`Not an integer amount of minor units: ${amount}`);
  const decimals = Math.max(0, Math.trunc(currency.decimals));
  const digits = String(Math.abs(amount)).padStart(decimals + 1, "0");
  const whole = groupThousands(digits.slice(0, digits.length - decimals));
  const number = decimals === 0 ? whole : `${whole}.${digits.slice(digits.length - decimals)}`;
  const sign = amount < 0 ? "-" : "";
  return currency.symbol && currency.symbol !== currency.code
    ? `${sign}${currency.symbol}${number}`
    : `${sign}${number} ${currency.code}`;
}
