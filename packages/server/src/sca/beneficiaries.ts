import type { Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { parseId } from "../core/ids.js";
import type { CustomerRow } from "../customers/store.js";
import { findExternalAccountOrThrow } from "../external-accounts/external-accounts.js";
import {
  type Answer,
  answerChallenge,
  issueChallenge,
  requireUnlocked,
  toScaChallenge,
} from "./challenges.js";
import { verifyPasskeyAssertion } from "./passkey-assertion.js";
import { findScaCustomerOrThrow } from "./regions.js";
import type {
  BeneficiaryTrustConfirm,
  BeneficiaryTrustConfirmRequest,
  BeneficiaryTrustStart,
  ScaChallenge,
} from "./schemas.js";
import { requireLiveSession } from "./sessions.js";
import * as store from "./store.js";

/** Which way a trust change goes: `/trust` + `/trust/confirm`, or `/untrust` + `/untrust/confirm`. */
export type TrustChange = "TRUST" | "UNTRUST";

/**
 * The stored purpose of both directions' challenges. The direction is the account's trust state (a trust
 * challenge can only be open on an untrusted account and the reverse), and starting either abandons the
 * other; the wire `purpose` names the direction (TRUST_BENEFICIARY or UNTRUST_BENEFICIARY).
 */
const PURPOSE = "UNTRUST_BENEFICIARY";

/**
 * The customer external account and its SCA-region customer, both locked: 404 for unknown, platform-owned
 * or foreign accounts; 409 CONFLICT for a customer outside the SCA regions; then the live session (409
 * SCA_SESSION_REQUIRED) and the lock (423).
 */
async function beneficiaryUnderSession(deps: Deps, tx: Tx, caller: Caller, rawId: string) {
  const account = await findExternalAccountOrThrow(tx, caller, rawId, "customer", true);
  const customer = await findScaCustomerOrThrow(tx, caller, account.customer_id ?? "");
  const now = nowFor(deps, caller);
  await requireLiveSession(tx, customer.id, now);
  requireUnlocked(await store.lockScaCustomer(tx, caller.platformId, customer.id, now), now);
  return { account, customer, now };
}

async function challenge(
  deps: Deps,
  tx: Tx,
  caller: Caller,
  input: { customer: CustomerRow; accountId: string; now: Date; change: TrustChange },
): Promise<ScaChallenge> {
  const { customer, accountId, now, change } = input;
  const row = await issueChallenge(deps, tx, caller, {
    customer,
    purpose: PURPOSE,
    factor: "OTP",
    subjectId: accountId,
    now,
  });
  return toScaChallenge(tx, caller, row, customer, `${change}_BENEFICIARY`);
}

/**
 * `POST /customers/external-accounts/{id}/trust` (`startBeneficiaryTrust`), step one of two: under a live
 * SCA session, an OTP challenge that `/trust/confirm` answers; the account stays untrusted until then. An
 * account already trusted answers without a challenge (nothing to change).
 */
export async function startTrust(deps: Deps, caller: Caller, rawId: string): Promise<BeneficiaryTrustStart> {
  return deps.db.transaction(async (tx) => {
    const { account, customer, now } = await beneficiaryUnderSession(deps, tx, caller, rawId);
    if (account.trusted_at) return {};
    return {
      scaChallenge: await challenge(deps, tx, caller, {
        customer,
        accountId: account.id,
        now,
        change: "TRUST",
      }),
    };
  });
}

/**
 * `POST /customers/external-accounts/{id}/untrust` (`startBeneficiaryUntrust`), step one of two: under a
 * live SCA session, an OTP challenge that `/untrust/confirm` (or `/confirm`) answers. The account stays
 * trusted until then; an account that is not trusted is `409 CONFLICT`.
 */
export async function startUntrust(
  deps: Deps,
  caller: Caller,
  rawId: string,
): Promise<BeneficiaryTrustStart> {
  return deps.db.transaction(async (tx) => {
    const { account, customer, now } = await beneficiaryUnderSession(deps, tx, caller, rawId);
    if (!account.trusted_at)
      throw new ApiError("CONFLICT", {
        reason: `External account ${account.id} is not a trusted beneficiary.`,
      });
    return {
      scaChallenge: await challenge(deps, tx, caller, {
        customer,
        accountId: account.id,
        now,
        change: "UNTRUST",
      }),
    };
  });
}

/** The answer the body gives for a challenge of `factor`: `code`, or `passkeyAssertion` with `origin`. */
function answerOf(caller: Caller, body: BeneficiaryTrustConfirmRequest, factor: store.ScaFactor): Answer {
  if (factor === "OTP") {
    if (body.code == null) throw invalidField("code", "is required: the challenge's factor is SMS_OTP");
    return { code: body.code };
  }
  const assertion = body.passkeyAssertion;
  if (assertion == null)
    throw invalidField("passkeyAssertion", "is required: the challenge's factor is PASSKEY");
  return { verify: (tx, row) => verifyPasskeyAssertion(tx, caller, row, assertion, body.origin) };
}

/** The hosted document's anyOf: `code`, or `passkeyAssertion` and `origin` together. */
function requireAnAnswer(body: BeneficiaryTrustConfirmRequest): void {
  if (body.passkeyAssertion != null && body.origin == null)
    throw invalidField("origin", "is required with passkeyAssertion");
  if (body.code == null && body.passkeyAssertion == null)
    throw invalidField("code", "is required (or passkeyAssertion with origin)");
}

/**
 * `POST …/{id}/trust/confirm` and `…/{id}/untrust/confirm` (also `…/{id}/confirm`, the interface's name for
 * the untrust confirmation), step two: answers the account's open challenge of this direction, or the one
 * `challengeId` names (`404 REQUEST_NOT_FOUND` when that is not this account's). None waiting is `409
 * CONFLICT`; a wrong code `400 INVALID_INPUT` on `code`; then the account is (un)trusted.
 */
export async function confirmTrustChange(
  deps: Deps,
  caller: Caller,
  rawId: string,
  body: BeneficiaryTrustConfirmRequest,
  change: TrustChange,
): Promise<BeneficiaryTrustConfirm> {
  requireAnAnswer(body);
  const trusted = change === "TRUST";
  const waiting = await deps.db.transaction(async (tx) => {
    const { account } = await beneficiaryUnderSession(deps, tx, caller, rawId);
    const named = body.challengeId == null ? undefined : parseId("Request", body.challengeId);
    const row =
      body.challengeId == null
        ? await store.latestOpenChallenge(tx, account.customer_id ?? "", PURPOSE, account.id)
        : named && (await store.findChallenge(tx, caller.platformId, named));
    if (body.challengeId != null && (row?.purpose !== PURPOSE || row.subject_id !== account.id))
      throw new ApiError("REQUEST_NOT_FOUND", {
        reason: `No ${change.toLowerCase()} challenge ${body.challengeId} for external account ${account.id}.`,
      });
    if (!row || !!account.trusted_at === trusted)
      throw new ApiError("CONFLICT", {
        reason: `No ${change.toLowerCase()} of external account ${account.id} is waiting; call /${change.toLowerCase()} first.`,
      });
    return row;
  });
  return answerChallenge(
    deps,
    caller,
    {
      rawId: waiting.id,
      purposes: [PURPOSE],
      answer: answerOf(caller, body, waiting.factor),
      field: waiting.factor === "OTP" ? "code" : "passkeyAssertion",
    },
    async (tx, answered, now) => {
      const account = await findExternalAccountOrThrow(
        tx,
        caller,
        answered.subject_id ?? "",
        "customer",
        true,
      );
      if (!!account.trusted_at === trusted)
        throw new ApiError("CONFLICT", {
          reason: `External account ${account.id} changed meanwhile; start again.`,
        });
      await store.setTrustedAt(tx, account.id, trusted ? now : null, now);
      return { trusted };
    },
  );
}
