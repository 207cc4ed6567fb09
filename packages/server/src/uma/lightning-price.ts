import { currency } from "../core/money.js";
import { sandboxRateSource } from "../exchange-rates/sandbox-source.js";

// UMA prices every currency in millisatoshis per minor unit (`multiplier`). The sandbox has no bitcoin
// market, so one bitcoin is worth a fixed USD 100,000 (docs/decisions.md "UMA"): one US cent is
// 10,000 msats, and another currency's minor unit is worth what the exchange-rate service says in cents.

const MSATS_PER_USD_CENT = 10_000;

/** Millisatoshis per minor unit of `code` at `at`; undefined when the currency has no USD rate. */
export function msatsPerMinorUnit(code: string, at: Date): number | undefined {
  if (code === "USD") return MSATS_PER_USD_CENT;
  const rate = sandboxRateSource.rate(code, "USD", at);
  if (!rate) return undefined;
  const usdPerMajor = Number(rate.units) / 10 ** rate.scale;
  const perMinor = (usdPerMajor * 100 * MSATS_PER_USD_CENT) / 10 ** currency(code).decimals;
  return perMinor > 0 ? perMinor : undefined;
}
