import { chicagoDay, nextChicagoMidnight } from "../core/chicago.js";
import type { Tx } from "../core/db/db.js";
import { deferUntilCommit } from "../core/db/scope.js";
import type { Deps } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import { currency } from "../core/money.js";
import { convertMinorUnits } from "../exchange-rates/decimal.js";
import { cachedRate } from "../exchange-rates/rates.js";
import { lockPlatform } from "../platform/store.js";
import type { ExecutionGate } from "./execution-gate.js";
import type { QuoteRow } from "./store.js";

/** Executed volume a platform may reach per America/Chicago day until the operator sets another: USD 10,000,000.00. */
export const DEFAULT_DAILY_VOLUME_LIMIT = 1_000_000_000;

/** Dollar stablecoins count 1:1 with USD; only their decimals differ. */
const dollarCodes = new Set(["USD", "USDC", "USDT", "USDB"]);

/**
 * What an execution adds to the day's volume: `totalSendingAmount` in USD cents, rounded up. USD and
 * dollar stablecoins convert 1:1; other currencies at the platform's cached rate to USD.
 */
export async function usdVolume(tx: Tx, quote: QuoteRow, now: Date): Promise<number> {
  const code = quote.sending_currency;
  const decimals = { from: currency(code).decimals, to: currency("USD").decimals };
  if (dollarCodes.has(code))
    return convertMinorUnits(quote.total_sending_amount, { units: 1n, scale: 0 }, decimals, "up");
  const rate = await cachedRate(tx, quote.platform_id, { source: code, destination: "USD" }, now);
  if (!rate)
    throw new ApiError("QUOTE_RATE_UNAVAILABLE", {
      reason: `No ${code} to USD rate is available now to count the daily volume.`,
    });
  return convertMinorUnits(quote.total_sending_amount, rate.rate, decimals, "up");
}

/**
 * The daily volume gate (`429 DAILY_VOLUME_LIMIT_EXCEEDED`). It adds the execution to its Chicago day's
 * counter row with one upsert, run last in the execution's transaction (right before its commit), so the
 * row lock that serialises a platform's executions is held for one statement, not the whole execution
 * (issue 20). Concurrent executions queue there, so together they never pass the limit. Going over throws,
 * and the rollback takes the execution and the addition back out. `Retry-After` counts the seconds to the
 * next Chicago midnight.
 */
export const dailyVolumeGate: ExecutionGate = async (tx, { now }, quote) => {
  const amount = await usdVolume(tx, quote, now);
  const count = () => addToDailyVolume(tx, quote, amount, now);
  if (!deferUntilCommit({}, count, { last: true })) await count();
  return undefined;
};

async function addToDailyVolume(tx: Tx, quote: QuoteRow, amount: number, now: Date): Promise<void> {
  const day = chicagoDay(now);
  // One statement: the upsert and the platform's limit (set by the operator, read in the same snapshot).
  const [counter] = await tx.query<{ volume: number; daily_volume_limit: number | null }>(
    `INSERT INTO daily_volumes (platform_id, day, volume, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (platform_id, day) DO UPDATE
       SET volume = daily_volumes.volume + EXCLUDED.volume, updated_at = EXCLUDED.updated_at
     RETURNING volume, (SELECT daily_volume_limit FROM platforms WHERE id = $1) AS daily_volume_limit`,
    [quote.platform_id, day, amount, now],
  );
  const limit = counter?.daily_volume_limit ?? DEFAULT_DAILY_VOLUME_LIMIT;
  const volume = counter?.volume ?? amount;
  if (volume <= limit) return;
  const resetsAt = nextChicagoMidnight(now);
  const seconds = Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000));
  throw new ApiError("DAILY_VOLUME_LIMIT_EXCEEDED", {
    reason: `Executing ${quote.id} (USD ${amount} cents) would take the platform's volume for ${day} (America/Chicago) to ${volume} cents, above its daily limit of ${limit}; the limit resets at ${resetsAt.toISOString()}, in ${seconds} s.`,
    details: {
      day,
      dailyVolumeLimit: limit,
      executedVolume: volume - amount,
      requestedVolume: amount,
      resetsAt: resetsAt.toISOString(),
    },
    headers: { "retry-after": String(seconds) },
  });
}

/** The largest limit the bigint column and the wire's amount bound allow. */
const MAX_LIMIT = 9_000_000_000_000_000;

/**
 * Operator only (`paysvc daily-volume-limit`): sets a platform's daily volume limit in USD cents under the
 * platform row lock. Lowering it below what was already executed today refuses further executions until
 * the next Chicago day; nothing executed is undone.
 */
export async function setDailyVolumeLimit(
  deps: Pick<Deps, "db">,
  platformId: string,
  limit: number,
): Promise<{ platformId: string; dailyVolumeLimit: number }> {
  if (!Number.isSafeInteger(limit) || limit < 0 || limit > MAX_LIMIT)
    throw new RangeError(`dailyVolumeLimit must be an integer from 0 to ${MAX_LIMIT}, not ${limit}`);
  return deps.db.transaction(async (tx) => {
    const platform = await lockPlatform(tx, platformId);
    if (!platform) throw new Error(`no platform ${platformId}`);
    await tx.query("UPDATE platforms SET daily_volume_limit = $2 WHERE id = $1", [platformId, limit]);
    return { platformId, dailyVolumeLimit: limit };
  });
}
