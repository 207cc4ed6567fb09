import { randomBytes } from "node:crypto";
import { Secret } from "otpauth";
import { isUniqueViolation } from "../core/db/sqlstate.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { newId } from "../core/ids.js";
import { secretsOf } from "../core/secrets/process-box.js";
import { CHALLENGE_TTL_MS } from "./challenges.js";
import { findScaCustomerOrThrow } from "./regions.js";
import type { TotpEnrollmentConfirmResponse, TotpEnrollmentStart } from "./schemas.js";
import { requireLiveSession } from "./sessions.js";
import * as store from "./totp-store.js";
import { acceptedStep, equalText, openSecret, sha256, totpOf } from "./totp-verify.js";

const ONE_ACTIVE = "sca_totp_factors_one_active_key";
const RECOVERY_CODES = 10;
const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

const alreadyEnrolled = (customerId: string) =>
  new ApiError("CONFLICT", {
    reason: `Customer ${customerId} already has a TOTP factor; delete it (or reset it) before enrolling another.`,
  });

/** A recovery code `ABCD-EFGH-IJKL`: 60 random bits, far past guessing (unlike a 6-digit code). */
function recoveryCode(): string {
  const bytes = randomBytes(12);
  const chars = [...bytes].map((b) => BASE32[b % 32]).join("");
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`;
}

/**
 * `POST /sca/factors {type: TOTP}` under a live SCA session: a new 160-bit secret, kept sealed, waiting
 * 5 minutes for `/sca/factors/confirm`; a new start replaces a waiting one. A customer with a TOTP factor
 * already → `409 CONFLICT`.
 */
export async function startTotpEnrollment(
  deps: Deps,
  caller: Caller,
  customerId: string,
): Promise<TotpEnrollmentStart> {
  return deps.db.transaction(async (tx) => {
    const customer = await findScaCustomerOrThrow(tx, caller, customerId);
    const now = nowFor(deps, caller);
    await requireLiveSession(tx, customer.id, now);
    if (await store.findTotp(tx, customer.id, "ACTIVE")) throw alreadyEnrolled(customer.id);
    await store.dropPendingTotp(tx, customer.id, now);
    const secret = new Secret({ size: 20 });
    const id = newId("AuthMethod");
    const sealed = await secretsOf(deps).seal("sca-totp-secret", id, new Uint8Array(secret.bytes));
    await store.insertTotp(tx, {
      id,
      platform_id: caller.platformId,
      customer_id: customer.id,
      secret: sealed,
      status: "PENDING",
      last_step: null,
      recovery_codes: [],
      expires_at: new Date(now.getTime() + CHALLENGE_TTL_MS),
      confirmed_at: null,
      deleted_at: null,
      created_at: now,
    });
    const email = typeof customer.profile.email === "string" ? customer.profile.email : customer.id;
    return {
      type: "TOTP",
      secret: secret.hex.toLowerCase(),
      secretBase32Encoded: secret.base32,
      totpUri: totpOf(secret, email).toString(),
    };
  });
}

/**
 * `POST /sca/factors/confirm {type: TOTP, secret, code}` under a live SCA session: `secret` must be the one
 * the start issued (hex or base32, else `400` on `secret`) and `code` its current code (else `400` on
 * `code`, not counted towards the lock, as a failing passkey registration). The factor becomes ACTIVE and
 * the answer carries its recovery codes, shown once. Nothing waiting (never started, replaced, expired) →
 * `409 CONFLICT`.
 */
export async function confirmTotpEnrollment(
  deps: Deps,
  caller: Caller,
  customerId: string,
  body: { secret?: string | undefined; code?: string | undefined },
): Promise<TotpEnrollmentConfirmResponse> {
  if (!body.secret) throw invalidField("secret", "is required for a TOTP enrolment");
  if (!body.code) throw invalidField("code", "is required for a TOTP enrolment");
  const { secret: given, code } = body;
  try {
    return await deps.db.transaction(async (tx) => {
      const customer = await findScaCustomerOrThrow(tx, caller, customerId);
      const now = nowFor(deps, caller);
      await requireLiveSession(tx, customer.id, now);
      if (await store.findTotp(tx, customer.id, "ACTIVE")) throw alreadyEnrolled(customer.id);
      const pending = await store.findTotp(tx, customer.id, "PENDING", true);
      if (!pending || now >= pending.expires_at)
        throw new ApiError("CONFLICT", {
          reason: `No TOTP enrolment of customer ${customer.id} is waiting; call POST /sca/factors first.`,
        });
      const secret = await openSecret(deps, pending);
      if (!sameSecret(secret, given)) throw invalidField("secret", "is not the secret this enrolment issued");
      const step = acceptedStep(secret, code, now, null);
      if (step === undefined) throw invalidField("code", "is not the current code of the secret");
      const recoveryCodes = Array.from({ length: RECOVERY_CODES }, recoveryCode);
      await store.activateTotp(tx, pending.id, {
        lastStep: step,
        recoveryCodes: recoveryCodes.map(sha256),
        now,
      });
      return { type: "TOTP", recoveryCodes };
    });
  } catch (error) {
    // Two concurrent confirms: the partial unique index lets one in.
    if (isUniqueViolation(error, ONE_ACTIVE)) throw alreadyEnrolled(customerId);
    throw error;
  }
}

function sameSecret(secret: Secret, given: string): boolean {
  const text = given.trim();
  return (
    equalText(text.toLowerCase(), secret.hex.toLowerCase()) ||
    equalText(text.toUpperCase().replace(/=+$/, ""), secret.base32)
  );
}
