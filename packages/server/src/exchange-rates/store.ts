import type { Executor, Tx } from "../core/db/db.js";

export interface ExchangeRateRow {
  [column: string]: unknown;
  platform_id: string;
  source_currency: string;
  destination_currency: string;
  /** Exact decimal text. */
  rate: string;
  fetched_at: Date;
  expires_at: Date;
}

export interface Pair {
  source: string;
  destination: string;
}

/** The cached rows of these pairs for a platform, fresh or not. */
export async function findRates(db: Executor, platformId: string, pairs: Pair[]): Promise<ExchangeRateRow[]> {
  if (pairs.length === 0) return [];
  return db.query<ExchangeRateRow>(
    `SELECT r.* FROM exchange_rates r
     JOIN unnest($2::text[], $3::text[]) AS p(s, d) ON r.source_currency = p.s AND r.destination_currency = p.d
     WHERE r.platform_id = $1`,
    [platformId, pairs.map((p) => p.source), pairs.map((p) => p.destination)],
  );
}

/**
 * Stores freshly fetched rates, replacing only rows that have expired by `fetchedAt`. When two requests
 * refresh the same pair at once, the first write wins and the other's row is left alone, so every caller
 * sees the same rate until `expires_at` (callers read the rows back after this).
 */
export async function storeFreshRates(
  tx: Tx,
  platformId: string,
  rates: (Pair & { rate: string })[],
  fetchedAt: Date,
  expiresAt: Date,
): Promise<void> {
  if (rates.length === 0) return;
  await tx.query(
    `INSERT INTO exchange_rates (platform_id, source_currency, destination_currency, rate, fetched_at, expires_at)
     SELECT $1, s, d, r, $5, $6 FROM unnest($2::text[], $3::text[], $4::text[]) AS p(s, d, r)
     ON CONFLICT (platform_id, source_currency, destination_currency) DO UPDATE
       SET rate = EXCLUDED.rate, fetched_at = EXCLUDED.fetched_at, expires_at = EXCLUDED.expires_at
       WHERE exchange_rates.expires_at <= EXCLUDED.fetched_at`,
    [
      platformId,
      rates.map((r) => r.source),
      rates.map((r) => r.destination),
      rates.map((r) => r.rate),
      fetchedAt,
      expiresAt,
    ],
  );
}
