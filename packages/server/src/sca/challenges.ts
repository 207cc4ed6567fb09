import { randomBytes, randomInt } from "node:crypto";
import type { Executor, Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { newId, parseId } from "../core/ids.js";
import { otpSenderFor } from "../core/otp-sender.js";
import { codeMatches, newCodeCheck } from "../core/secrets/code-mac.js";
import { secretsOf } from "../core/secrets/process-box.js";
import { SealedValueError } from "../core/secrets/secret-box.js";
import type { CustomerRow } from "../customers/store.js";
import { SANDBOX_OTP_CODE } from "../wallet-auth/otp.js";
import { findLivePasskey } from "./passkey-store.js";
import type { ScaChallenge } from "./schemas.js";
import * as store from "./store.js";
import { assertionOptions, availableFactors, scaRelyingParty, wireFactor } from "./webauthn.js";

/** Every SCA challenge is answerable for 5 minutes (like a signed-retry challenge, interface Limits). */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** Consecutive wrong answers (any SCA challenge of the customer) that lock the customer (`423`). */
export const MAX_FAILED_ATTEMPTS = 5;
/** How long a lock lasts, on the platform's clock. */
export const LOCK_MS = 30 * 60 * 1000;

/**
 * The hosted API's `ScaChallenge` of a stored challenge: `purpose` as the wire names it, the customer's
 * `availableFactors`, and for a PASSKEY challenge the WebAuthn request options and allowed origins.
 */
export async function toScaChallenge(
  db: Executor,
  caller: Caller,
  row: store.ChallengeRow,
  customer: CustomerRow,
  purpose: ScaChallenge["purpose"],
): Promise<ScaChallenge> {
  const wire: ScaChallenge = {
    id: row.id,
    expiresAt: row.expires_at.toISOString(),
    factor: wireFactor(row.factor),
    availableFactors: await availableFactors(db, customer),
    purpose,
    passkeyAssertionOptions: null,
    passkeyAllowedOrigins: null,
  };
  const passkey = row.webauthn_challenge === null ? undefined : await findLivePasskey(db, customer.id);
  if (passkey && row.webauthn_challenge !== null) {
    const rp = await scaRelyingParty(db, caller);
    wire.passkeyAssertionOptions = await assertionOptions(rp, passkey, row.webauthn_challenge);
    wire.passkeyAllowedOrigins = rp.origins;
  }
  return wire;
}

/** The body of `423 ACCOUNT_LOCKED` (the hosted API's Error423 details). */
export function lockedError(state: { customer_id: string; locked_until: Date | null }, reason?: string) {
  const lockedUntil = state.locked_until?.toISOString() ?? null;
  return new ApiError("ACCOUNT_LOCKED", {
    reason: reason ?? `Customer ${state.customer_id} is locked after wrong SCA answers until ${lockedUntil}.`,
    details: { suspended: true, lockedUntil, failedAttempts: MAX_FAILED_ATTEMPTS },
  });
}

/** `423 ACCOUNT_LOCKED` while the customer's lock runs (platform clock). */
export function requireUnlocked(state: store.ScaCustomerRow, now: Date): void {
  if (state.locked_until !== null && state.locked_until > now) throw lockedError(state);
}

/** Where an OTP of this purpose goes: the proven contact itself, else the phone (SMS) before the e-mail. */
function otpDestination(customer: CustomerRow, purpose: store.ChallengePurpose) {
  const email = typeof customer.profile.email === "string" ? customer.profile.email : undefined;
  const phone = typeof customer.profile.phoneNumber === "string" ? customer.profile.phoneNumber : undefined;
  if (purpose === "CONTACT_EMAIL") return email ? { channel: "EMAIL" as const, to: email } : undefined;
  if (purpose === "CONTACT_PHONE") return phone ? { channel: "SMS" as const, to: phone } : undefined;
  if (phone) return { channel: "SMS" as const, to: phone };
  return email ? { channel: "EMAIL" as const, to: email } : undefined;
}

/**
 * Issues a challenge inside the caller's transaction, abandoning older open ones of the same purpose and
 * subject. OTP: a 6-digit code (sandbox `000000`), stored hashed and sent to the customer's contact;
 * PASSKEY: a fresh WebAuthn challenge. A customer with no contact for an OTP is `409 CONFLICT`.
 */
export async function issueChallenge(
  deps: Deps,
  tx: Tx,
  caller: Caller,
  input: {
    customer: CustomerRow;
    purpose: store.ChallengePurpose;
    factor: store.ScaFactor;
    subjectId?: string;
    now: Date;
  },
): Promise<store.ChallengeRow> {
  const { customer, purpose, factor, now } = input;
  const destination = factor === "OTP" ? otpDestination(customer, purpose) : undefined;
  if (factor === "OTP" && !destination) {
    throw new ApiError("CONFLICT", {
      reason: `Customer ${customer.id} has no ${purpose === "CONTACT_PHONE" ? "phoneNumber" : purpose === "CONTACT_EMAIL" ? "email" : "email or phoneNumber"} to send a code to.`,
    });
  }
  const code =
    caller.environment === "SANDBOX" ? SANDBOX_OTP_CODE : String(randomInt(0, 1_000_000)).padStart(6, "0");
  const id = newId("Request");
  const check = factor === "OTP" ? await newCodeCheck(secretsOf(deps), "sca-code-key", id, code) : null;
  const row: store.ChallengeRow = {
    id,
    platform_id: caller.platformId,
    customer_id: customer.id,
    purpose,
    factor,
    code_hash: check?.mac ?? null,
    code_key: check?.sealedKey ?? null,
    webauthn_challenge: factor === "PASSKEY" ? randomBytes(32).toString("hex") : null,
    subject_id: input.subjectId ?? null,
    state: "OPEN",
    failed_attempts: 0,
    expires_at: new Date(now.getTime() + CHALLENGE_TTL_MS),
    completed_at: null,
    created_at: now,
  };
  await store.abandonOpenChallenges(tx, customer.id, [purpose], row.subject_id);
  await store.insertChallenge(tx, row);
  if (destination && caller.environment !== "SANDBOX") {
    await otpSenderFor(deps).send({
      platformId: caller.platformId,
      accountId: customer.id,
      authMethodId: row.id,
      ...destination,
      code,
      expiresAt: row.expires_at,
    });
  }
  return row;
}

/** How a challenge was proven: an OTP code, or a check the caller runs (WebAuthn) that returns ok. */
export type Answer =
  | { code: string }
  | { verify: (tx: Tx, challenge: store.ChallengeRow) => Promise<boolean> };

type Outcome<T> = { done: T } | { error: ApiError };

/**
 * Answers a challenge: `404 REQUEST_NOT_FOUND` (unknown, foreign, other purpose), `409 CONFLICT` (used,
 * abandoned or expired), `423 ACCOUNT_LOCKED`, and a wrong answer `400 INVALID_INPUT` on `code` (or on
 * the assertion). Wrong answers count towards the customer's lock and are committed before the error;
 * on success `onSuccess` runs in the same transaction as the challenge's completion.
 */
export async function answerChallenge<T>(
  deps: Deps,
  caller: Caller,
  input: {
    rawId: string;
    purposes: store.ChallengePurpose[];
    answer: Answer;
    field: string;
    onExpired?: (tx: Tx, challenge: store.ChallengeRow, now: Date) => Promise<void>;
  },
  onSuccess: (tx: Tx, challenge: store.ChallengeRow, now: Date) => Promise<T>,
): Promise<T> {
  const id = parseId("Request", input.rawId);
  const outcome = await deps.db.transaction(async (tx): Promise<Outcome<T>> => {
    const challenge = id ? await store.lockChallenge(tx, caller.platformId, id) : undefined;
    if (!challenge || !input.purposes.includes(challenge.purpose))
      throw new ApiError("REQUEST_NOT_FOUND", { reason: `No SCA challenge ${input.rawId}.` });
    const now = nowFor(deps, caller);
    if (challenge.state === "OPEN" && now >= challenge.expires_at) {
      await store.setChallengeState(tx, challenge.id, { state: "EXPIRED" });
      await input.onExpired?.(tx, challenge, now);
      return { error: notOpen(challenge.id, "EXPIRED") };
    }
    if (challenge.state !== "OPEN") throw notOpen(challenge.id, challenge.state);
    const state = await store.lockScaCustomer(tx, caller.platformId, challenge.customer_id, now);
    requireUnlocked(state, now);
    const right =
      "code" in input.answer
        ? await otpMatches(deps, challenge, input.answer.code)
        : await input.answer.verify(tx, challenge);
    if (!right) return { error: await recordFailure(tx, state, challenge, input.field, now) };
    await store.setChallengeState(tx, challenge.id, { state: "COMPLETED", completedAt: now });
    await store.updateScaCustomer(tx, { ...state, failed_attempts: 0, updated_at: now });
    return { done: await onSuccess(tx, challenge, now) };
  });
  if ("error" in outcome) throw outcome.error;
  return outcome.done;
}

function notOpen(id: string, state: string): ApiError {
  const why = state === "EXPIRED" ? "expired" : state === "COMPLETED" ? "already answered" : "no longer open";
  return new ApiError("CONFLICT", { reason: `SCA challenge ${id} is ${why}; start a new one.` });
}

/** Counts a wrong answer; the MAX_FAILED_ATTEMPTS-th in a row locks the customer for LOCK_MS. */
async function recordFailure(
  tx: Tx,
  state: store.ScaCustomerRow,
  challenge: store.ChallengeRow,
  field: string,
  now: Date,
): Promise<ApiError> {
  const failed = state.failed_attempts + 1;
  const locks = failed >= MAX_FAILED_ATTEMPTS;
  const lockedUntil = locks ? new Date(now.getTime() + LOCK_MS) : state.locked_until;
  await store.updateScaCustomer(tx, {
    ...state,
    failed_attempts: locks ? 0 : failed,
    locked_until: lockedUntil,
    updated_at: now,
  });
  await store.setChallengeState(tx, challenge.id, {
    state: locks ? "FAILED" : "OPEN",
    failedAttempts: challenge.failed_attempts + 1,
  });
  if (locks && lockedUntil) {
    return lockedError(
      { customer_id: state.customer_id, locked_until: lockedUntil },
      `${MAX_FAILED_ATTEMPTS} wrong SCA answers in a row: customer ${state.customer_id} is locked until ${lockedUntil.toISOString()}.`,
    );
  }
  return invalidField(field, "does not answer the SCA challenge");
}

/** Whether `code` is the challenge's OTP: its HMAC under the challenge's sealed key (core/secrets/code-mac.ts). */
async function otpMatches(deps: Deps, challenge: store.ChallengeRow, code: string): Promise<boolean> {
  if (challenge.code_hash === null || challenge.code_key === null) return false;
  const check = { sealedKey: challenge.code_key, mac: challenge.code_hash };
  try {
    return await codeMatches(secretsOf(deps), "sca-code-key", challenge.id, check, code);
  } catch (error) {
    // A key that does not open here (copied from another row, or tampered with) proves no code.
    if (!(error instanceof SealedValueError)) throw error;
    deps.logger.warn({ challengeId: challenge.id }, "an SCA code key does not open; the code is refused");
    return false;
  }
}
