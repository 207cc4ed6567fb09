import { createHash } from "node:crypto";
import { divideToSignificant, parseRate, type Rate } from "./decimal.js";

/** Where fresh rates come from. The sandbox source below is the only one configured so far. */
export interface RateSource {
  /** The rate (receiving major units per sending major unit) at `at`, or null when the pair has none. */
  rate(sourceCurrency: string, destinationCurrency: string, at: Date): Rate | null;
}

/**
 * Sandbox mid rates, units of each currency per US dollar. BTC has none: there is no BTC pricing yet
 * (docs/decisions.md "Wallet payouts"). Corridors run through the dollar: every pair with USD or a dollar
 * stablecoin on one side has a rate; a cross between two other currencies (EUR to MXN) has none.
 */
const midPerUsd: Record<string, string> = {
  USD: "1",
  USDC: "1",
  USDT: "1",
  USDB: "1",
  EUR: "0.92",
  GBP: "0.79",
  MXN: "17.05",
  BRL: "5.02",
  COP: "3950",
  INR: "83.2",
  PHP: "56.1",
  SGD: "1.34",
  AED: "3.6725",
  BDT: "119.5",
  BWP: "13.6",
  CAD: "1.37",
  CNY: "7.2",
  DKK: "6.86",
  EGP: "48.5",
  GHS: "15.0",
  GTQ: "7.75",
  HKD: "7.8",
  HTG: "131",
  IDR: "16200",
  JMD: "157",
  KES: "129",
  MWK: "1735",
  MYR: "4.5",
  NGN: "1550",
  PKR: "280",
  RWF: "1400",
  THB: "34.5",
  TZS: "2600",
  UGX: "3700",
  VND: "25400",
  XAF: "600",
  XOF: "600",
  ZAR: "18.2",
  ZMW: "26.5",
};

/** Dollar stablecoins are pegged: between them and USD the rate is exactly 1 and never moves. */
const dollarGroup = new Set(["USD", "USDC", "USDT", "USDB"]);

/** Rates move once per 5-minute slot of the platform clock, by up to ±0.50 %. */
export const VARIATION_SLOT_MS = 5 * 60 * 1000;
const MAX_VARIATION_BPS = 50;

/** A deterministic move in basis points for a pair and slot: the same inputs always give the same rate. */
function variationBps(source: string, destination: string, at: Date): number {
  const slot = Math.floor(at.getTime() / VARIATION_SLOT_MS);
  const digest = createHash("sha256").update(`${source}/${destination}/${slot}`).digest();
  return (digest.readUInt32BE(0) % (2 * MAX_VARIATION_BPS + 1)) - MAX_VARIATION_BPS;
}

/** The sandbox rate source: the mid cross rate moved by the slot's variation, to 10 significant digits. */
export const sandboxRateSource: RateSource = {
  rate(source, destination, at) {
    const from = midPerUsd[source];
    const to = midPerUsd[destination];
    if (from === undefined || to === undefined || source === destination) return null;
    if (!dollarGroup.has(source) && !dollarGroup.has(destination)) return null;
    const f = parseRate(from);
    const t = parseRate(to);
    const bps =
      dollarGroup.has(source) && dollarGroup.has(destination) ? 0 : variationBps(source, destination, at);
    // (t / f) × (10000 + bps) / 10000, exactly, then rounded once.
    const numerator = t.units * 10n ** BigInt(f.scale) * BigInt(10_000 + bps);
    const denominator = f.units * 10n ** BigInt(t.scale) * 10_000n;
    return divideToSignificant(numerator, denominator);
  },
};

/** Every currency the sandbox source prices. */
export const pricedCurrencies = Object.keys(midPerUsd);
