import { randomInt, randomUUID } from "node:crypto";
import { p256 } from "@noble/curves/nist.js";
import type { Tx } from "../core/db/db.js";
import type { Deps } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import { hpkeOpen } from "../core/hpke.js";
import type { Environment } from "../core/http/context.js";
import { otpSenderFor } from "../core/otp-sender.js";
import { codeMatches, newCodeCheck } from "../core/secrets/code-mac.js";
import { processSecrets, secretsOf } from "../core/secrets/process-box.js";
import type { SecretBox } from "../core/secrets/secret-box.js";
import { recordAttempt } from "./attempts.js";
import { signedBundle } from "./bundle-signing.js";
import * as store from "./otp-store.js";
import { compressedKeyHex } from "./sessions.js";
import type { AuthMethodRow } from "./store.js";

/** A code is valid 10 minutes and void after 5 wrong attempts (conventions §5.4). */
export const OTP_TTL_MS = 10 * 60 * 1000;
export const OTP_MAX_WRONG = 5;
/** Sandbox platforms: always this code, real HPKE, no delivery (conventions §1.9, §5.4). */
export const SANDBOX_OTP_CODE = "000000";
const HPKE_INFO = "turnkey_hpke";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/**
 * A new OTP for an EMAIL_OTP or SMS_OTP credential (conventions §5.4, §5.5): voids the older codes and
 * bundles, stores a fresh HPKE target key pair (the private half sealed) and the code's keyed check
 * (core/secrets/code-mac.ts), counts the issue toward the re-issue limit, sends the code (production
 * platforms only) and returns the signed `otpEncryptionTargetBundle`.
 */
export async function issueOtpChallenge(
  tx: Tx,
  deps: Deps,
  method: AuthMethodRow,
  environment: Environment,
  now: Date,
): Promise<string> {
  await store.voidOtpChallenges(tx, method.id);
  const secrets = secretsOf(deps);
  const secret = p256.utils.randomSecretKey();
  const targetPublic = hex(p256.getPublicKey(secret, false));
  const code =
    environment === "SANDBOX" ? SANDBOX_OTP_CODE : String(randomInt(0, 1_000_000)).padStart(6, "0");
  const id = randomUUID();
  const expiresAt = new Date(now.getTime() + OTP_TTL_MS);
  const check = await newCodeCheck(secrets, "otp-code-key", id, code);
  await store.insertOtpChallenge(tx, {
    id,
    auth_method_id: method.id,
    target_private_key: await secrets.seal("otp-target-key", id, secret),
    target_public_key: targetPublic,
    code_key: check.sealedKey,
    code_hmac: check.mac,
    failed_attempts: 0,
    state: "OPEN",
    expires_at: expiresAt,
    created_at: now,
  });
  secret.fill(0);
  await recordAttempt(tx, method.id, "CHALLENGE", now);
  const bundle = await signedBundle(tx, secrets, method.platform_id, {
    organizationId: method.account_id,
    targetPublic,
    userId: method.id,
  });
  if (environment !== "SANDBOX")
    await otpSenderFor(deps).send({
      platformId: method.platform_id,
      accountId: method.account_id,
      authMethodId: method.id,
      channel: method.type === "SMS_OTP" ? "SMS" : "EMAIL",
      to: method.nickname,
      code,
      expiresAt,
    });
  return bundle;
}

const badBundle = (message: string) => invalidField("encryptedOtpBundle", message);
const hexPattern = /^(?:[0-9a-fA-F]{2})+$/;

/** `{encappedPublic, ciphertext}` (conventions §5.4) decrypted with the challenge's target key. */
async function openOtpBundle(
  secrets: SecretBox,
  challenge: store.OtpChallengeRow,
  text: string,
): Promise<Uint8Array> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badBundle("is not JSON text");
  }
  const { encappedPublic, ciphertext } = (parsed ?? {}) as Record<string, unknown>;
  if (
    typeof encappedPublic !== "string" ||
    !/^(04[0-9a-fA-F]{128}|0[23][0-9a-fA-F]{64})$/.test(encappedPublic)
  )
    throw badBundle("encappedPublic must be a P-256 public key in hex (04…, 130 characters)");
  if (typeof ciphertext !== "string" || !hexPattern.test(ciphertext))
    throw badBundle("ciphertext must be hex");
  // A target key that does not open is a fault of the service (500), not of the bundle.
  const targetKey = await secrets.open("otp-target-key", challenge.id, challenge.target_private_key);
  try {
    return await hpkeOpen(
      targetKey,
      Buffer.from(encappedPublic, "hex"),
      Buffer.from(ciphertext, "hex"),
      HPKE_INFO,
    );
  } catch {
    throw badBundle("does not decrypt with the credential's current otpEncryptionTargetBundle");
  } finally {
    targetKey.fill(0);
  }
}

/** The plaintext `{"otp_code","public_key"}`; the key may be compressed or uncompressed. */
function readPlaintext(plaintext: Uint8Array): { code: string; publicKey: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(plaintext));
  } catch {
    throw badBundle("decrypts to something other than UTF-8 JSON");
  }
  const { otp_code: code, public_key: publicKey } = (parsed ?? {}) as Record<string, unknown>;
  if (typeof code !== "string" || code.length === 0 || code.length > 64)
    throw badBundle("plaintext otp_code must be a string");
  if (typeof publicKey !== "string" || !/^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/.test(publicKey))
    throw badBundle("plaintext public_key must be a P-256 public key in hex (02/03… or 04…)");
  try {
    return { code, publicKey: compressedKeyHex(publicKey) };
  } catch {
    throw badBundle("plaintext public_key is not a point on P-256");
  }
}

export type OtpCheck = { publicKey: string } | { failure: string };

/**
 * Checks an `encryptedOtpBundle` against the credential's outstanding code (conventions §5.5 step 2).
 * A malformed or undecryptable bundle is `400`. A wrong, expired or missing code is a failure the caller
 * commits and answers `401`; the fifth wrong code voids the challenge. The right code uses the challenge
 * up and yields the client key (compressed) that the `202` binds. `secrets` defaults to the process's box
 * because wallet-auth/credential-auth.ts does not pass `deps.secrets` yet (core/secrets/process-box.ts).
 */
export async function checkOtpBundle(
  tx: Tx,
  method: AuthMethodRow,
  encryptedOtpBundle: string,
  now: Date,
  secrets: SecretBox = processSecrets(),
): Promise<OtpCheck> {
  const challenge = await store.openOtpChallenge(tx, method.id);
  if (!challenge) return { failure: "no code is outstanding; request a new one" };
  const { code, publicKey } = readPlaintext(await openOtpBundle(secrets, challenge, encryptedOtpBundle));
  if (method.updated_at.getTime() > challenge.created_at.getTime())
    throw new ApiError(
      method.type === "SMS_OTP" ? "SMS_OTP_CREDENTIAL_SET_CHANGED" : "EMAIL_OTP_CREDENTIAL_SET_CHANGED",
      {
        reason: `Credential ${method.id} changed after its code was issued; request a new one.`,
      },
    );
  if (now.getTime() > challenge.expires_at.getTime()) {
    await store.markOtpChallenge(tx, challenge.id, "VOID");
    return { failure: "the code expired; request a new one" };
  }
  const { code_key: sealedKey, code_hmac: mac } = challenge;
  // Only challenges voided by migration 0017 lack a check, and a void challenge is never open.
  if (sealedKey === null || mac === null) throw new Error(`OTP challenge ${challenge.id} has no code check`);
  if (!(await codeMatches(secrets, "otp-code-key", challenge.id, { sealedKey, mac }, code))) {
    await store.countWrongCode(tx, challenge.id, OTP_MAX_WRONG);
    return { failure: "the code is wrong" };
  }
  await store.markOtpChallenge(tx, challenge.id, "USED");
  return { publicKey };
}
