import { createHash, randomBytes } from "node:crypto";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { formats } from "../core/http/formats.js";
import { newId, parseId } from "../core/ids.js";
import type { CustomerRow } from "../customers/store.js";
import { changePhoneNumber } from "../customers/update-customer.js";
import { requireUnlocked } from "./challenges.js";
import { findLivePasskey, markPasskeyDeleted } from "./passkey-store.js";
import { findScaCustomerOrThrow, readScaCustomerOrThrow } from "./regions.js";
import * as resets from "./reset-store.js";
import type {
  ScaFactor,
  TwoFactorResetCompleteRequest,
  TwoFactorResetStart,
  TwoFactorResetStatus,
} from "./schemas.js";
import { usableFactor } from "./sessions.js";
import * as store from "./store.js";
import { deleteTotp, findTotp } from "./totp-store.js";

/** How long a reset waits for the identity check and its completion, on the platform clock. */
export const RESET_TTL_MS = 15 * 60 * 1000;
/** Starts closer together than this are `429 RATE_LIMITED` (each one issues a new verification link). */
export const RESET_SPACING_MS = 30 * 1000;

const digest = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");
const notFound = (rawId: string) =>
  new ApiError("REQUEST_NOT_FOUND", { reason: `No two-factor reset ${rawId} for this customer.` });

/**
 * `POST /sca/factors/reset?customerId= {factor}` (`startTwoFactorReset`): for a customer who lost a
 * factor, so no SCA session is needed. The factor must be one the customer has (PASSKEY and TOTP
 * enrolled, else `409 CONFLICT`); a locked customer is `423`; a start within 30 s of the last is `429`.
 * The identity check is the sandbox's hosted verification page (`verificationLink`); a production
 * platform has no identity provider here, so its resets are `409 CONFLICT`.
 */
export async function startReset(
  deps: Deps,
  caller: Caller,
  customerId: string,
  body: { factor: ScaFactor },
  origin: string,
): Promise<TwoFactorResetStart> {
  return deps.db.transaction(async (tx) => {
    const customer = await findScaCustomerOrThrow(tx, caller, customerId);
    const now = nowFor(deps, caller);
    requireUnlocked(await store.lockScaCustomer(tx, caller.platformId, customer.id, now), now);
    await usableFactor(tx, customer.id, body.factor);
    if (caller.environment !== "SANDBOX")
      throw new ApiError("CONFLICT", {
        reason:
          "No identity verification provider is configured: two-factor resets run on sandbox platforms only.",
      });
    const last = await resets.latestReset(tx, customer.id);
    const waitMs = last ? RESET_SPACING_MS - (now.getTime() - last.created_at.getTime()) : 0;
    if (waitMs > 0)
      throw new ApiError("RATE_LIMITED", {
        reason: `A two-factor reset of customer ${customer.id} was started less than 30 seconds ago; retry later.`,
        headers: { "retry-after": String(Math.max(1, Math.ceil(waitMs / 1000))) },
      });
    await resets.expireOpenResets(tx, customer.id, now);
    const token = randomBytes(32).toString("base64url");
    const row: resets.ResetRow = {
      id: newId("Request"),
      platform_id: caller.platformId,
      customer_id: customer.id,
      factor: body.factor,
      status: "INITIATED",
      token_hash: digest(token),
      enrollment_status: null,
      expires_at: new Date(now.getTime() + RESET_TTL_MS),
      liveness_at: null,
      completed_at: null,
      created_at: now,
      updated_at: now,
    };
    await resets.insertReset(tx, row);
    return {
      resetId: row.id,
      livenessAccessToken: token,
      verificationLink: `${origin}/${encodeURIComponent(token)}`,
      expiresAt: row.expires_at.toISOString(),
    };
  });
}

/** `GET /sca/factors/reset/{resetId}?customerId=` (`getTwoFactorResetStatus`). */
export async function getReset(
  deps: Deps,
  caller: Caller,
  customerId: string,
  rawId: string,
): Promise<TwoFactorResetStatus> {
  const customer = await readScaCustomerOrThrow(deps.db, caller, customerId);
  const id = parseId("Request", rawId);
  const row = id ? await resets.findReset(deps.db, caller.platformId, id) : undefined;
  if (row?.customer_id !== customer.id) throw notFound(rawId);
  return toStatus(deps, row, customer, nowFor(deps, caller));
}

/**
 * The hosted `mobile` as the customer's `phoneNumber`: `countryCode` (`+1` or `1`) then `number`, which
 * together must pass the check `PATCH /customers/{id}` applies to `phoneNumber` (E.164), else `400` on `mobile`.
 */
function phoneNumberOf(mobile: TwoFactorResetCompleteRequest["mobile"]): string | undefined {
  if (mobile === undefined) return undefined;
  const phoneNumber = `+${mobile.countryCode.replace(/^\+/, "")}${mobile.number}`;
  if (!formats["e.164"]?.(phoneNumber))
    throw invalidField("mobile", "countryCode followed by number must be an E.164 phone number", {
      format: "e.164",
    });
  return phoneNumber;
}

/**
 * `POST /sca/factors/reset/{resetId}/complete?customerId=` (`completeTwoFactorReset`): once the identity
 * check passed, removes the factor (the passkey, the TOTP factor; SMS_OTP keeps the contact on file) and
 * ends the customer's SCA sessions and lock; the customer then enrolls again (`enrollmentStatus`).
 * `mobile` replaces the customer's phoneNumber in the same transaction (a new SMS_OTP destination).
 * Not passed yet, rejected, expired or done → `409 CONFLICT`.
 */
export async function completeReset(
  deps: Deps,
  caller: Caller,
  customerId: string,
  rawId: string,
  body: TwoFactorResetCompleteRequest | undefined,
): Promise<void> {
  const phoneNumber = phoneNumberOf(body?.mobile);
  await deps.db.transaction(async (tx) => {
    const customer = await findScaCustomerOrThrow(tx, caller, customerId);
    const id = parseId("Request", rawId);
    const row = id ? await resets.findReset(tx, caller.platformId, id, true) : undefined;
    if (row?.customer_id !== customer.id) throw notFound(rawId);
    const now = nowFor(deps, caller);
    if (row.status === "LIVENESS_PASSED" && now >= row.expires_at) {
      await resets.setResetStatus(tx, row.id, { status: "EXPIRED", now });
      throw new ApiError("CONFLICT", { reason: `Two-factor reset ${row.id} expired; start a new one.` });
    }
    if (row.status !== "LIVENESS_PASSED")
      throw new ApiError("CONFLICT", {
        reason: `Two-factor reset ${row.id} is ${effectiveStatus(row, now)}; only LIVENESS_PASSED can complete.`,
      });
    if (row.factor === "PASSKEY") {
      const passkey = await findLivePasskey(tx, customer.id);
      if (passkey) await markPasskeyDeleted(tx, passkey.id, now);
    }
    if (row.factor === "TOTP") await deleteTotp(tx, customer.id, now);
    await store.revokeSessions(tx, customer.id, now);
    const state = await store.lockScaCustomer(tx, caller.platformId, customer.id, now);
    await store.updateScaCustomer(tx, { ...state, failed_attempts: 0, locked_until: null, updated_at: now });
    if (phoneNumber !== undefined) await changePhoneNumber(tx, customer, phoneNumber, now);
    await resets.setResetStatus(tx, row.id, { status: "COMPLETED", now, completedAt: now });
  });
}

/**
 * The sandbox identity check behind `verificationLink`: `pass` moves an INITIATED reset to
 * LIVENESS_PASSED, else REJECTED. Unknown, used or expired links answer false.
 */
export async function verifyResetIdentity(deps: Deps, token: string, pass: boolean): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    const row = await resets.findResetByToken(tx, digest(token));
    if (row?.status !== "INITIATED") return false;
    const now = nowFor(deps, { clockOffsetMs: Number(row.clock_offset_ms) });
    if (now >= row.expires_at) {
      await resets.setResetStatus(tx, row.id, { status: "EXPIRED", now });
      return false;
    }
    await resets.setResetStatus(tx, row.id, {
      status: pass ? "LIVENESS_PASSED" : "REJECTED",
      now,
      ...(pass ? { livenessAt: now } : {}),
    });
    return true;
  });
}

const effectiveStatus = (row: resets.ResetRow, now: Date): resets.ResetStatus =>
  (row.status === "INITIATED" || row.status === "LIVENESS_PASSED") && now >= row.expires_at
    ? "EXPIRED"
    : row.status;

async function toStatus(
  deps: Deps,
  row: resets.ResetRow,
  customer: CustomerRow,
  now: Date,
): Promise<TwoFactorResetStatus> {
  let enrollmentStatus: TwoFactorResetStatus["enrollmentStatus"] = null;
  if (row.status === "COMPLETED") {
    // PENDING until the customer has the factor again (SMS_OTP: the contact on file answers at once).
    const again =
      row.factor === "SMS_OTP" ||
      (row.factor === "PASSKEY" && (await findLivePasskey(deps.db, customer.id)) !== undefined) ||
      (row.factor === "TOTP" && (await findTotp(deps.db, customer.id, "ACTIVE")) !== undefined);
    enrollmentStatus = again ? "COMPLETED" : "PENDING";
  }
  return {
    status: effectiveStatus(row, now),
    factor: row.factor as ScaFactor,
    enrollmentStatus,
    expiresAt: row.expires_at.toISOString(),
    completedAt: row.completed_at?.toISOString() ?? null,
  };
}
