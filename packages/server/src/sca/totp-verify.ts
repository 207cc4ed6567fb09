import { createHash, timingSafeEqual } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import type { Tx } from "../core/db/db.js";
import type { Deps } from "../core/deps.js";
import { secretsOf } from "../core/secrets/process-box.js";
import * as store from "./totp-store.js";

// Apart from totp.ts (enrolment needs a live session, sessions.ts), so that sessions.ts can answer a TOTP
// login with this check without importing enrolment.

/** RFC 6238 defaults every authenticator app reads from the otpauth:// URI: SHA1, 6 digits, 30 s. */
export const PERIOD_S = 30;
const ISSUER = "paysvc";

export const totpOf = (secret: Secret, label: string) =>
  new TOTP({ issuer: ISSUER, label, secret, algorithm: "SHA1", digits: 6, period: PERIOD_S });
export const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
export const equalText = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));

/**
 * Whether `code` answers a TOTP challenge of the customer: the code of the current 30-second step (one
 * step of drift either way, RFC 6238 §5.2) never accepted before, or one unused recovery code (then spent).
 * Runs under the factor's row lock, inside the challenge's transaction.
 */
export async function verifyTotp(
  deps: Deps,
  tx: Tx,
  customerId: string,
  code: string,
  now: Date,
): Promise<boolean> {
  const factor = await store.findTotp(tx, customerId, "ACTIVE", true);
  if (!factor) return false;
  const lastStep = factor.last_step === null ? null : Number(factor.last_step);
  if (/^[0-9]{6}$/.test(code)) {
    const step = acceptedStep(await openSecret(deps, factor), code, now, lastStep);
    if (step === undefined) return false;
    await store.recordTotpUse(tx, factor.id, { lastStep: step, recoveryCodes: factor.recovery_codes });
    return true;
  }
  const digest = sha256(code.trim().toUpperCase());
  const left = factor.recovery_codes.filter((stored) => !equalText(stored, digest));
  if (left.length === factor.recovery_codes.length) return false;
  await store.recordTotpUse(tx, factor.id, { lastStep: null, recoveryCodes: left });
  return true;
}

/** The time step `code` is valid for at `now` (±1 step), if it is later than `lastStep`. */
export function acceptedStep(
  secret: Secret,
  code: string,
  now: Date,
  lastStep: number | null,
): number | undefined {
  const timestamp = now.getTime();
  const delta = totpOf(secret, "check").validate({ token: code, timestamp, window: 1 });
  if (delta === null) return undefined;
  const step = Math.floor(timestamp / 1000 / PERIOD_S) + delta;
  return lastStep !== null && step <= lastStep ? undefined : step;
}

export async function openSecret(deps: Deps, row: store.TotpRow): Promise<Secret> {
  const bytes = await secretsOf(deps).open("sca-totp-secret", row.id, row.secret);
  return new Secret({ buffer: new Uint8Array(bytes).buffer });
}
