import type { Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { currency, currencyCodes, isKnownCurrency } from "../core/money.js";
import { findPlatform } from "../platform/store.js";
import { formatRate, parseRate, type Rate } from "./decimal.js";
import { type RateSource, sandboxRateSource } from "./sandbox-source.js";
import type { ExchangeRate, ExchangeRatesQuery } from "./schemas.js";
import { findRates, type Pair, storeFreshRates } from "./store.js";

/** How long a fetched rate is served for a platform (interface Limits: "cached about 5 minutes"). */
export const RATE_TTL_MS = 5 * 60 * 1000;

/** A rate as served from the platform's cache. */
export interface CachedRate extends Pair {
  rate: Rate;
  /** The exact decimal text; `Number(text)` is the wire value. */
  text: string;
  fetchedAt: Date;
  expiresAt: Date;
}

const key = (p: Pair) => `${p.source}/${p.destination}`;

/**
 * The platform's cached rates for these pairs at `now` (platform clock). A row is served until its
 * `expiresAt`; pairs with no row or an expired one are fetched from the source and stored for 5 minutes.
 * Pairs the source has no rate for are left out. Runs in the caller's transaction.
 */
export async function cachedRates(
  tx: Tx,
  platformId: string,
  pairs: Pair[],
  now: Date,
  source: RateSource = sandboxRateSource,
): Promise<CachedRate[]> {
  const found = new Map(
    (await findRates(tx, platformId, pairs)).map((row) => [
      key({ source: row.source_currency, destination: row.destination_currency }),
      row,
    ]),
  );
  const stale = pairs.filter((p) => {
    const row = found.get(key(p));
    return !row || row.expires_at.getTime() <= now.getTime();
  });
  const fetched = stale.flatMap((p) => {
    const rate = source.rate(p.source, p.destination, now);
    return rate ? [{ ...p, rate: formatRate(rate) }] : [];
  });
  if (fetched.length > 0) {
    await storeFreshRates(tx, platformId, fetched, now, new Date(now.getTime() + RATE_TTL_MS));
    // Read back: a concurrent refresh may have stored its rate first, and that one is served.
    for (const row of await findRates(tx, platformId, fetched)) {
      found.set(key({ source: row.source_currency, destination: row.destination_currency }), row);
    }
  }
  return pairs.flatMap((p) => {
    const row = found.get(key(p));
    if (!row || row.expires_at.getTime() <= now.getTime()) return [];
    return [
      {
        ...p,
        rate: parseRate(row.rate),
        text: row.rate,
        fetchedAt: row.fetched_at,
        expiresAt: row.expires_at,
      },
    ];
  });
}

/** One pair's cached rate, or null when there is none for the corridor now. */
export async function cachedRate(
  tx: Tx,
  platformId: string,
  pair: Pair,
  now: Date,
): Promise<CachedRate | null> {
  const [rate] = await cachedRates(tx, platformId, [pair], now);
  return rate ?? null;
}

/** The pairs a list asks for: every ordered pair of distinct known currencies, narrowed by the filters. */
function requestedPairs(query: ExchangeRatesQuery): Pair[] {
  for (const code of [query.sourceCurrency, query.destinationCurrency]) {
    if (code !== undefined && !isKnownCurrency(code))
      throw new ApiError("INVALID_CURRENCY", { reason: `Unknown currency ${code}.` });
  }
  const codes = [...currencyCodes].sort();
  const sources = query.sourceCurrency ? [query.sourceCurrency] : codes;
  const destinations = query.destinationCurrency ? [query.destinationCurrency] : codes;
  return sources.flatMap((source) =>
    destinations
      .filter((destination) => destination !== source)
      .map((destination) => ({ source, destination })),
  );
}

/**
 * `GET /exchange-rates`: the platform's cached rates, each with the platform fees a quote from that
 * source currency is charged (USD sources only). A corridor without a rate is simply not listed.
 */
export async function listExchangeRates(
  deps: Deps,
  caller: Caller,
  query: ExchangeRatesQuery,
): Promise<{ data: ExchangeRate[] }> {
  const pairs = requestedPairs(query);
  return deps.db.transaction(async (tx) => {
    const now = nowFor(deps, caller);
    const platform = await findPlatform(tx, caller.platformId);
    if (!platform) throw new ApiError("PLATFORM_NOT_FOUND");
    const rates = await cachedRates(tx, caller.platformId, pairs, now);
    return {
      data: rates.map((r) => ({
        sourceCurrency: currency(r.source),
        destinationCurrency: currency(r.destination),
        rate: Number(r.text),
        platformFees: r.source === "USD" ? platform.fee_configs : [],
        fetchedAt: r.fetchedAt.toISOString(),
        expiresAt: r.expiresAt.toISOString(),
      })),
    };
  });
}
