import type { Executor } from "../core/db/db.js";
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
import type { CompleteBody, LoginBody, ScaChallenge, ScaSession } from "./schemas.js";
import * as store from "./store.js";

/** An SCA login session lasts 180 days (interface, Limits), on the platform's clock. */
export const SESSION_TTL_MS = 180 * 24 * 60 * 60 * 1000;

function toScaSession(row: store.SessionRow): ScaSession {
  return {
    id: row.id,
    customerId: row.customer_id,
    factor: row.factor,
    createdAt: row.created_at.toISOString(),
    sessionExpiresAt: row.expires_at.toISOString(),
  };
}

/**
 * `409 SCA_SESSION_REQUIRED` unless the customer has a live SCA login session at `now` (missing, expired
 * or logged out). Distinct from 401, which is about the platform's own credentials (interface rule 11).
 */
export async function requireLiveSession(db: Executor, customerId: string, now: Date): Promise<void> {
  if (await store.liveSession(db, customerId, now)) return;
  throw new ApiError("SCA_SESSION_REQUIRED", {
    reason: `Customer ${customerId} has no live SCA login session; log in (POST /sca/login) and retry.`,
  });
}

/** `POST /sca/login`: a login challenge for the chosen factor (OTP by default). */
export async function startLogin(deps: Deps, caller: Caller, body: LoginBody): Promise<ScaChallenge> {
  return deps.db.transaction(async (tx) => {
    const customer = await findScaCustomerOrThrow(tx, caller, body.customerId);
    const now = nowFor(deps, caller);
    requireUnlocked(await store.lockScaCustomer(tx, caller.platformId, customer.id, now), now);
    const factor = body.factor ?? "OTP";
    if (factor === "PASSKEY" && !(await findLivePasskey(tx, customer.id)))
      throw new ApiError("CONFLICT", { reason: `Customer ${customer.id} has no enrolled SCA passkey.` });
    const row = await issueChallenge(deps, tx, caller, { customer, purpose: "LOGIN", factor, now });
    return toScaChallenge(row);
  });
}

/**
 * The answer of an OTP or PASSKEY challenge from a completion body: `code` for OTP, `assertion` for
 * PASSKEY (`400 INVALID_INPUT` when the one the factor needs is missing).
 */
export function answerFor(
  caller: Caller,
  body: Pick<CompleteBody, "code" | "assertion">,
  factor: store.ScaFactor,
): Answer {
  if (factor === "OTP") {
    if (body.code === undefined) throw invalidField("code", "is required for an OTP challenge");
    return { code: body.code };
  }
  const assertion = body.assertion;
  if (assertion === undefined) throw invalidField("assertion", "is required for a PASSKEY challenge");
  return { verify: (tx, challenge) => verifyPasskeyAssertion(tx, caller, challenge, assertion) };
}

/** `POST /sca/login/complete`: answers the login challenge and opens a 180-day session. */
export async function completeLogin(deps: Deps, caller: Caller, body: CompleteBody): Promise<ScaSession> {
  const factor = await challengeFactor(deps, caller, body.requestId);
  const answer = answerFor(caller, body, factor);
  return answerChallenge(
    deps,
    caller,
    { rawId: body.requestId, purposes: ["LOGIN"], answer, field: factor === "OTP" ? "code" : "assertion" },
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
      return toScaSession(row);
    },
  );
}

/** The factor of a challenge, read before answering it (unknown ids fall through to the answer's 404). */
export async function challengeFactor(deps: Deps, caller: Caller, rawId: string): Promise<store.ScaFactor> {
  const id = parseId("Request", rawId);
  const row = id ? await store.findChallenge(deps.db, caller.platformId, id) : undefined;
  if (!row) throw new ApiError("REQUEST_NOT_FOUND", { reason: `No SCA challenge ${rawId}.` });
  return row.factor;
}

/** `DELETE /sca/sessions/{sessionId}`: logs the customer out of that session. */
export async function revokeSession(deps: Deps, caller: Caller, rawId: string): Promise<void> {
  const id = parseId("Session", rawId);
  await deps.db.transaction(async (tx) => {
    const row = id ? await store.lockSession(tx, caller.platformId, id) : undefined;
    if (!row) throw new ApiError("SESSION_NOT_FOUND", { reason: `No SCA session ${rawId}.` });
    if (row.revoked_at === null) await store.revokeSession(tx, row.id, nowFor(deps, caller));
  });
}
