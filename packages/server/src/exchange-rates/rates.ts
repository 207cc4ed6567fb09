import type { Tx } from "../core/db/db.js";
import { formatRate, parseRate, type Rate } from "./decimal.js";
import { type RateSource, sandboxRateSource } from "./sandbox-source.js";
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
