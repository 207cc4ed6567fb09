import type { Executor, Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { newId, parseId } from "../core/ids.js";
import {
  type Answer,
  answerChallenge,
  issueChallenge,
  requireUnlocked,
  toScaChallenge,
} from "./challenges.js";
import { verifyPasskeyAssertion } from "./passkey-assertion.js";
import { findLivePasskey } from "./passkey-store.js";
import { findScaCustomerOrThrow } from "./regions.js";
import type {
  PasskeyAssertion,
  ScaFactor,
  ScaLoginComplete,
  ScaLoginCompleteRequest,
  ScaLoginStart,
  ScaLoginStartRequest,
} from "./schemas.js";
import * as store from "./store.js";
import { findTotp } from "./totp-store.js";
import { verifyTotp } from "./totp-verify.js";
import { wireFactor } from "./webauthn.js";

/** An SCA login session lasts 180 days (interface, Limits), on the platform's clock. */
export const SESSION_TTL_MS = 180 * 24 * 60 * 60 * 1000;

/**
 * `409 SCA_SESSION_REQUIRED` unless the customer has a live SCA login session at `now` (missing, expired
 * or ended by a password reset). Distinct from 401, which is about the platform's own credentials
 * (interface rule 11).
 */
export async function requireLiveSession(db: Executor, customerId: string, now: Date): Promise<void> {
  if (await store.liveSession(db, customerId, now)) return;
  throw new ApiError("SCA_SESSION_REQUIRED", {
    reason: `Customer ${customerId} has no live SCA login session; log in (POST /sca/login/start, /sca/login/complete) and retry.`,
  });
}

/**
 * The stored factor of a wire one, which the customer must be able to answer with: PASSKEY and TOTP once
 * enrolled (else `409 CONFLICT`).
 */
export async function usableFactor(tx: Tx, customerId: string, factor: ScaFactor): Promise<store.ScaFactor> {
  if (factor === "PASSKEY" && !(await findLivePasskey(tx, customerId)))
    throw new ApiError("CONFLICT", { reason: `Customer ${customerId} has no enrolled SCA passkey.` });
  if (factor === "TOTP" && !(await findTotp(tx, customerId, "ACTIVE")))
    throw new ApiError("CONFLICT", { reason: `Customer ${customerId} has no enrolled TOTP factor.` });
  return factor === "SMS_OTP" ? "OTP" : factor;
}

/**
 * `POST /sca/login/start?customerId=` (`startScaLogin`): a LOGIN challenge for the factor. SMS_OTP sends a
 * code; PASSKEY (once enrolled, else `409 CONFLICT`) returns the WebAuthn options. A new start abandons the
 * customer's open login challenge.
 */
export async function startLogin(
  deps: Deps,
  caller: Caller,
  customerId: string,
  body: ScaLoginStartRequest,
): Promise<ScaLoginStart> {
  return deps.db.transaction(async (tx) => {
    const customer = await findScaCustomerOrThrow(tx, caller, customerId);
    const now = nowFor(deps, caller);
    requireUnlocked(await store.lockScaCustomer(tx, caller.platformId, customer.id, now), now);
    const factor = await usableFactor(tx, customer.id, body.factor);
    const row = await issueChallenge(deps, tx, caller, { customer, purpose: "LOGIN", factor, now });
    const challenge = await toScaChallenge(tx, caller, row, customer, "LOGIN");
    return {
      factor: body.factor,
      challengeId: row.id,
      expiresAt: challenge.expiresAt,
      passkeyOptions: challenge.passkeyAssertionOptions ?? null,
      allowedOrigins: challenge.passkeyAllowedOrigins ?? null,
      relyingPartyId:
        typeof challenge.passkeyAssertionOptions?.rpId === "string"
          ? challenge.passkeyAssertionOptions.rpId
          : null,
    };
  });
}

/** The hosted document's anyOf: `code`, or `passkeyAssertion` with `origin`. */
export interface AnswerFields {
  code?: string | null | undefined;
  passkeyAssertion?: PasskeyAssertion | null | undefined;
  origin?: string | null | undefined;
}

/**
 * The answer of a challenge of `factor`: `code` for SMS_OTP and TOTP (the authenticator's code or a
 * recovery code), `passkeyAssertion` with `origin` for PASSKEY (`400 INVALID_INPUT` on the one missing).
 */
export function answerFor(deps: Deps, caller: Caller, body: AnswerFields, factor: store.ScaFactor): Answer {
  if (factor === "OTP" || factor === "TOTP") {
    const { code } = body;
    if (code == null) throw invalidField("code", `is required for a ${wireFactor(factor)} challenge`);
    if (factor === "OTP") return { code };
    return {
      verify: (tx, challenge) => verifyTotp(deps, tx, challenge.customer_id, code, nowFor(deps, caller)),
    };
  }
  const assertion = body.passkeyAssertion;
  if (assertion == null) throw invalidField("passkeyAssertion", "is required for a PASSKEY challenge");
  if (body.origin == null) throw invalidField("origin", "is required with passkeyAssertion");
  return { verify: (tx, challenge) => verifyPasskeyAssertion(tx, caller, challenge, assertion, body.origin) };
}

/** The field a wrong answer is reported on. */
export const answerField = (factor: store.ScaFactor) => (factor === "PASSKEY" ? "passkeyAssertion" : "code");

/**
 * The customer's LOGIN challenge this completion answers: the one `challengeId` names (`404
 * REQUEST_NOT_FOUND` when it is not this customer's login challenge), else its newest open one (`409
 * CONFLICT` when none is waiting).
 */
async function loginChallenge(deps: Deps, caller: Caller, customerId: string, challengeId?: string | null) {
  return deps.db.transaction(async (tx) => {
    const customer = await findScaCustomerOrThrow(tx, caller, customerId);
    if (challengeId == null) {
      const open = await store.latestOpenChallenge(tx, customer.id, "LOGIN");
      if (!open)
        throw new ApiError("CONFLICT", {
          reason: `No login of customer ${customer.id} is waiting; call /sca/login/start first.`,
        });
      return open;
    }
    const id = parseId("Request", challengeId);
    const row = id ? await store.findChallenge(tx, caller.platformId, id) : undefined;
    if (row?.purpose !== "LOGIN" || row.customer_id !== customer.id)
      throw new ApiError("REQUEST_NOT_FOUND", {
        reason: `No login challenge ${challengeId} for customer ${customer.id}.`,
      });
    return row;
  });
}

/**
 * `POST /sca/login/complete?customerId=` (`completeScaLogin`): answers the login challenge and opens a
 * 180-day session (`sessionExpiresAt`). `factor` must be the challenge's.
 */
export async function completeLogin(
  deps: Deps,
  caller: Caller,
  customerId: string,
  body: ScaLoginCompleteRequest,
): Promise<ScaLoginComplete> {
  const waiting = await loginChallenge(deps, caller, customerId, body.challengeId);
  if (wireFactor(waiting.factor) !== body.factor)
    throw invalidField("factor", `must be ${wireFactor(waiting.factor)}, the factor of the login challenge`);
  const answer = answerFor(deps, caller, body, waiting.factor);
  return answerChallenge(
    deps,
    caller,
    { rawId: waiting.id, purposes: ["LOGIN"], answer, field: answerField(waiting.factor) },
    async (tx, challenge, now) => {
      const row: store.SessionRow = {
        id: newId("Session"),
        platform_id: caller.platformId,
        customer_id: challenge.customer_id,
        factor: challenge.factor,
        expires_at: new Date(now.getTime() + SESSION_TTL_MS),
        revoked_at: null,
        created_at: now,
      };
      await store.insertSession(tx, row);
      return { status: "SUCCESS", sessionExpiresAt: row.expires_at.toISOString() };
    },
  );
}
