import { ConnectionError, type PaysvcError } from "./errors.js";

/** Backoff: jittered exponential from 0.5 s, capped at 5 s (Stripe's `_getSleepTimeInMS`). */
const INITIAL_RETRY_DELAY_MS = 500;
const MAX_RETRY_DELAY_MS = 5_000;
/** A longer server hint (a daily volume limit counts to midnight) is handed to the caller instead. */
const MAX_RETRY_AFTER_SECONDS = 60;

/** `Retry-After` as seconds: an integer (what paysvc sends) or an HTTP date. */
export function parseRetryAfter(header: string | null): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** Jittered exponential delay before retry number `attempt` (0-based): 0.25–0.5 s, doubling, capped at 5 s. */
export function backoffMs(attempt: number): number {
  const ceiling = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** attempt, MAX_RETRY_DELAY_MS);
  // Half fixed, half random: spreads out clients that failed together, and never retries at once.
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/**
 * How long to wait before repeating a failed attempt, or undefined to give up (house style rule 15):
 * no response at all; a 429 or `409 NOT_YET_AVAILABLE` (the server did nothing, and `Retry-After` says
 * when to come back); a 5xx only when repeating is safe: GET, DELETE, or a POST with an idempotency key.
 */
export function retryDelayMs(error: PaysvcError, safeToRepeat: boolean, attempt: number): number | undefined {
  if (error instanceof ConnectionError) return backoffMs(attempt);
  const status = error.status ?? 0;
  if (status === 429 || (status === 409 && error.code === "NOT_YET_AVAILABLE")) {
    const hint = error.retryAfterSeconds;
    if (hint === undefined) return backoffMs(attempt);
    return hint > MAX_RETRY_AFTER_SECONDS ? undefined : hint * 1000;
  }
  return status >= 500 && safeToRepeat ? backoffMs(attempt) : undefined;
}
