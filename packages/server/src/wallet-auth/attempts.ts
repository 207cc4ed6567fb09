import { randomUUID } from "node:crypto";
import type { Executor, Tx } from "../core/db/db.js";
import { ApiError } from "../core/errors/api-error.js";
import type { AuthMethodRow } from "./store.js";

// Rolling-window limits per credential (conventions §5.8, docs/decisions.md "Embedded wallet
// authentication"), counted in `auth_attempts`: challenge issues, failed credential proofs, lockout.

/** `429` beyond this many challenge issues per credential in any rolling window (conventions §5.8). */
export const CHALLENGES_PER_WINDOW = 5;
/** `429` after this many failed verifies per credential in any rolling window (conventions §5.8). */
export const FAILED_VERIFIES_PER_WINDOW = 10;
export const RATE_WINDOW_MS = 15 * 60 * 1000;
/** `423 ACCOUNT_LOCKED` (our decision): this many failed verifies of one credential within 24 hours. */
export const LOCKOUT_FAILURES = 20;
export const LOCKOUT_WINDOW_MS = 24 * 60 * 60 * 1000;
/**
 * `429` after this many failed OTP verifies across all of one platform's credentials in a rolling window
 * (issue 16 item 8): guessing spread over many wallets, each under its own limits, is bounded too.
 */
export const PLATFORM_FAILED_OTP_VERIFIES_PER_WINDOW = 500;

type AttemptKind = "CHALLENGE" | "FAILED_VERIFY";

/** Records one challenge issue or failed proof; the caller commits it even when it answers an error. */
export async function recordAttempt(
  tx: Tx,
  authMethodId: string,
  kind: AttemptKind,
  now: Date,
): Promise<void> {
  await tx.query("INSERT INTO auth_attempts (id, auth_method_id, kind, created_at) VALUES ($1, $2, $3, $4)", [
    randomUUID(),
    authMethodId,
    kind,
    now,
  ]);
}

/** When the attempts of `kind` in (`now` − `windowMs`, `now`] happened, newest first, at most `limit`. */
async function recentAttempts(
  db: Executor,
  authMethodId: string,
  kind: AttemptKind,
  now: Date,
  windowMs: number,
  limit: number,
): Promise<Date[]> {
  const rows = await db.query<{ created_at: Date }>(
    `SELECT created_at FROM auth_attempts WHERE auth_method_id = $1 AND kind = $2 AND created_at > $3
     ORDER BY created_at DESC LIMIT $4`,
    [authMethodId, kind, new Date(now.getTime() - windowMs), limit],
  );
  return rows.map((r) => r.created_at);
}

/**
 * When `limit` attempts already lie in the window: the instant the oldest of them leaves it (the next
 * attempt is allowed then); otherwise null.
 */
async function blockedUntil(
  db: Executor,
  authMethodId: string,
  kind: AttemptKind,
  now: Date,
  windowMs: number,
  limit: number,
): Promise<Date | null> {
  const recent = await recentAttempts(db, authMethodId, kind, now, windowMs, limit);
  const oldest = recent[limit - 1];
  return recent.length >= limit && oldest ? new Date(oldest.getTime() + windowMs) : null;
}

const secondsUntil = (until: Date, now: Date) =>
  Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));

/** `423 ACCOUNT_LOCKED` while the credential holds LOCKOUT_FAILURES failed verifies within 24 hours. */
export async function checkNotLocked(tx: Tx, method: AuthMethodRow, now: Date): Promise<void> {
  const until = await blockedUntil(tx, method.id, "FAILED_VERIFY", now, LOCKOUT_WINDOW_MS, LOCKOUT_FAILURES);
  if (until)
    throw new ApiError("ACCOUNT_LOCKED", {
      reason: `Credential ${method.id} is locked after ${LOCKOUT_FAILURES} failed verifications in 24 hours; it unlocks at ${until.toISOString()}.`,
    });
}

/** `429 RATE_LIMITED` + Retry-After beyond CHALLENGES_PER_WINDOW issues in 15 minutes. */
export async function checkChallengeRate(tx: Tx, method: AuthMethodRow, now: Date): Promise<void> {
  const until = await blockedUntil(tx, method.id, "CHALLENGE", now, RATE_WINDOW_MS, CHALLENGES_PER_WINDOW);
  if (!until) return;
  const seconds = secondsUntil(until, now);
  throw new ApiError("RATE_LIMITED", {
    reason: `At most ${CHALLENGES_PER_WINDOW} challenges per credential in 15 minutes; retry in ${seconds} s.`,
    headers: { "retry-after": String(seconds) },
  });
}

/** `429 RATE_LIMITED` + Retry-After after FAILED_VERIFIES_PER_WINDOW failed verifies in 15 minutes. */
export async function checkVerifyRate(tx: Tx, method: AuthMethodRow, now: Date): Promise<void> {
  const until = await blockedUntil(
    tx,
    method.id,
    "FAILED_VERIFY",
    now,
    RATE_WINDOW_MS,
    FAILED_VERIFIES_PER_WINDOW,
  );
  if (!until) return;
  const seconds = secondsUntil(until, now);
  throw new ApiError("RATE_LIMITED", {
    reason: `At most ${FAILED_VERIFIES_PER_WINDOW} failed verifications per credential in 15 minutes; retry in ${seconds} s.`,
    headers: { "retry-after": String(seconds) },
  });
}

/**
 * `429 RATE_LIMITED` + Retry-After once a platform's OTP credentials together failed
 * PLATFORM_FAILED_OTP_VERIFIES_PER_WINDOW verifies in 15 minutes (the platform's clock, like the others).
 */
export async function checkPlatformOtpRate(tx: Tx, platformId: string, now: Date): Promise<void> {
  const limit = PLATFORM_FAILED_OTP_VERIFIES_PER_WINDOW;
  const [oldest] = await tx.query<{ created_at: Date }>(
    `SELECT a.created_at FROM auth_attempts a JOIN auth_methods m ON m.id = a.auth_method_id
      WHERE m.platform_id = $1 AND m.type IN ('EMAIL_OTP', 'SMS_OTP') AND a.kind = 'FAILED_VERIFY'
        AND a.created_at > $2
      ORDER BY a.created_at DESC OFFSET $3 LIMIT 1`,
    [platformId, new Date(now.getTime() - RATE_WINDOW_MS), limit - 1],
  );
  if (!oldest) return;
  const seconds = secondsUntil(new Date(oldest.created_at.getTime() + RATE_WINDOW_MS), now);
  throw new ApiError("RATE_LIMITED", {
    reason: `At most ${limit} failed OTP verifications per platform in 15 minutes; retry in ${seconds} s.`,
    headers: { "retry-after": String(seconds) },
  });
}
