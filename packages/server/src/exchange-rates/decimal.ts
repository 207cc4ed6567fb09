/**
 * Exact decimal rates. An exchange rate is the one non-integer number on the wire (conventions §1.4); it
 * is kept as a decimal string (at most RATE_DIGITS significant digits) and computed with BigInt, so no
 * float ever touches an amount. Such a string converts to a JavaScript number and back unchanged.
 */

/** A positive decimal: units × 10^-scale. */
export interface Rate {
  units: bigint;
  scale: number;
}

/** Significant digits every rate is rounded to: few enough that the wire number is exactly the string. */
export const RATE_DIGITS = 10;

const decimalText = /^(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** Parses a decimal (`0.92`, `17.05`, `1e-7` as JavaScript writes small numbers); throws on anything else. */
export function parseRate(text: string): Rate {
  const match = decimalText.exec(text);
  if (!match) throw new RangeError(`not a decimal rate: ${text}`);
  const [, whole = "", fraction = "", exponent = "0"] = match;
  const units = BigInt(whole + fraction);
  let scale = fraction.length - Number(exponent);
  if (units <= 0n) throw new RangeError(`a rate must be positive: ${text}`);
  if (scale < 0) return { units: units * pow10(-scale), scale: 0 };
  let reduced = units;
  while (scale > 0 && reduced % 10n === 0n) {
    reduced /= 10n;
    scale -= 1;
  }
  return { units: reduced, scale };
}

/** Plain decimal text without exponent or trailing zeros (`0.0002531`, `17.05`, `1`). */
export function formatRate(rate: Rate): string {
  const digits = rate.units.toString();
  if (rate.scale === 0) return digits;
  const padded = digits.padStart(rate.scale + 1, "0");
  const whole = padded.slice(0, padded.length - rate.scale);
  const fraction = padded.slice(padded.length - rate.scale).replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole;
}

/** numerator / denominator rounded half up to `digits` significant digits. */
export function divideToSignificant(numerator: bigint, denominator: bigint, digits = RATE_DIGITS): Rate {
  if (numerator <= 0n || denominator <= 0n) throw new RangeError("a rate must be positive");
  // Choose the scale that leaves exactly `digits` digits in the integer quotient.
  let scale = digits - (numerator.toString().length - denominator.toString().length) - 1;
  const quotient = (s: number) =>
    s >= 0 ? (numerator * pow10(s)) / denominator : numerator / (denominator * pow10(-s));
  while (quotient(scale) >= pow10(digits)) scale -= 1;
  while (quotient(scale) < pow10(digits - 1)) scale += 1;
  const scaledNumerator = scale >= 0 ? numerator * pow10(scale) : numerator;
  const scaledDenominator = scale >= 0 ? denominator : denominator * pow10(-scale);
  let units = scaledNumerator / scaledDenominator;
  if ((scaledNumerator % scaledDenominator) * 2n >= scaledDenominator) units += 1n;
  if (scale < 0) return { units: units * pow10(-scale), scale: 0 };
  return parseRate(formatRate({ units, scale }));
}

/**
 * An amount in the sending currency's minor units converted at `rate` (major per major) to the receiving
 * currency's minor units, rounded down (conventions §3.3) or up.
 */
export function convertMinorUnits(
  amount: number,
  rate: Rate,
  decimals: { from: number; to: number },
  rounding: "down" | "up",
): number {
  const numerator = BigInt(amount) * rate.units * pow10(decimals.to);
  const denominator = pow10(rate.scale + decimals.from);
  let result = numerator / denominator;
  if (rounding === "up" && numerator % denominator !== 0n) result += 1n;
  // Beyond 2^53 a number is not exact; callers compare with MAX_AMOUNT, so the largest exact value is enough.
  return result > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(result);
}
