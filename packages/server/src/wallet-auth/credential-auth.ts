import type { Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { secretsOf } from "../core/secrets/process-box.js";
import {
  checkChallengeRate,
  checkNotLocked,
  checkPlatformOtpRate,
  checkVerifyRate,
  recordAttempt,
} from "./attempts.js";
import { walletProcessingDelayMs } from "./auth-config.js";
import type { ChallengeBody, PasskeyAuthChallenge, VerifyCredentialBody } from "./credential-schemas.js";
import { verifyOauth } from "./oauth.js";
import { checkOtpBundle, issueOtpChallenge } from "./otp.js";
import { passkeyChallenge, verifyPasskey } from "./passkey.js";
import type { AuthMethod } from "./schemas.js";
import { openSession } from "./sessions.js";
import { isFirstCall, type SignedHttp, settlingErrors, signedCall } from "./signed-calls.js";
import { type Performer, type SignedResponse, signedRetry } from "./signed-retry.js";
import { type AuthMethodRow, findAuthMethod } from "./store.js";
import { liveMethodOrThrow, walletAccountOrThrow } from "./wallet-account.js";
import { toAuthMethod, toAuthSession } from "./wire.js";

const isOtp = (method: AuthMethodRow) => method.type === "EMAIL_OTP" || method.type === "SMS_OTP";

/** The live credential a challenge or verify names, locked, on a provisioned wallet. */
async function credentialOf(tx: Tx, caller: Caller, rawId: string): Promise<AuthMethodRow> {
  const method = await liveMethodOrThrow(tx, caller, rawId, true);
  await walletAccountOrThrow(tx, caller, method.account_id);
  return method;
}

/**
 * `POST /auth/credentials/{id}/challenge` (conventions §5.2, flows 1, 4, 7): OTP credentials get a new code
 * and bundle (older ones void); PASSKEY gets a challenge bound to `clientPublicKey`; OAUTH has none
 * (`400`). Locked credentials answer `423`, and more than 5 issues in 15 minutes `429` + Retry-After.
 */
export async function challengeCredential(
  deps: Deps,
  caller: Caller,
  rawId: string,
  body: ChallengeBody,
): Promise<PasskeyAuthChallenge | AuthMethod> {
  const now = nowFor(deps, caller);
  return deps.db.transaction(async (tx) => {
    const method = await credentialOf(tx, caller, rawId);
    if (method.type === "OAUTH")
      throw invalidField(
        "id",
        "is an OAUTH credential, which has no challenge: call verify with a fresh oidcToken",
      );
    if (method.type === "PASSKEY" && body.clientPublicKey === undefined)
      throw invalidField("clientPublicKey", "is required to challenge a PASSKEY credential");
    await checkNotLocked(tx, method, now);
    await checkChallengeRate(tx, method, now);
    if (method.type === "PASSKEY" && body.clientPublicKey !== undefined) {
      await recordAttempt(tx, method.id, "CHALLENGE", now);
      return (await passkeyChallenge(
        tx,
        deps,
        caller,
        method,
        body.clientPublicKey,
        now,
      )) as PasskeyAuthChallenge;
    }
    const bundle = await issueOtpChallenge(tx, deps, method, caller.environment, now);
    return toAuthMethod(method, { otpEncryptionTargetBundle: bundle });
  });
}

type VerifyOutcome = { response: SignedResponse } | { failure: string };

/**
 * `POST /auth/credentials/{id}/verify` (conventions §5.2, §5.5, flows 1, 2, 4). OTP: the first call
 * checks the code in the encrypted bundle and answers the `202` binding the client key; the retry signed
 * by that key opens the session. OAUTH and PASSKEY answer the session at once. Every failed proof is
 * committed and counted (`429` after 10 in 15 minutes, `423` after 20 in 24 hours) before its `401`.
 */
export async function verifyCredential(
  deps: Deps,
  caller: Caller,
  rawId: string,
  body: VerifyCredentialBody,
  http: SignedHttp,
): Promise<SignedResponse> {
  const now = nowFor(deps, caller);
  let methodId: string | undefined;
  let outcome: VerifyOutcome;
  try {
    outcome = await deps.db.transaction(async (tx): Promise<VerifyOutcome> => {
      const method = await credentialOf(tx, caller, rawId);
      if (body.type !== method.type)
        throw invalidField("type", `must be ${method.type}, the credential's type`, { enum: [method.type] });
      // The OTP retry follows a proof already accepted: only the signature checks apply to it.
      if (isOtp(method) && !isFirstCall(http))
        return { response: await otpSignedRetry(tx, deps, caller, method, body, http, now) };
      await checkNotLocked(tx, method, now);
      await checkVerifyRate(tx, method, now);
      methodId = method.id;
      if (body.type === "EMAIL_OTP" || body.type === "SMS_OTP") {
        await checkPlatformOtpRate(tx, caller.platformId, now);
        const checked = await checkOtpBundle(tx, method, body.encryptedOtpBundle, now, secretsOf(deps));
        if ("failure" in checked) {
          await recordAttempt(tx, method.id, "FAILED_VERIFY", now);
          return { failure: checked.failure };
        }
        return {
          response: await otpSignedRetry(tx, deps, caller, method, body, http, now, checked.publicKey),
        };
      }
      if (body.type === "OAUTH")
        return { response: { status: 200, body: await verifyOauth(tx, deps, caller, method, body, now) } };
      if (body.type === "PASSKEY") {
        const session = await verifyPasskey(tx, deps, caller, method, body, http.requestIdHeader, now);
        return { response: { status: 200, body: session } };
      }
      throw new Error(`unhandled credential type ${method.type}`);
    });
  } catch (error) {
    // A failed OIDC or WebAuthn proof rolled its transaction back; it still counts toward the limits.
    if (error instanceof ApiError && error.code === "UNAUTHORIZED" && methodId) {
      const failedId = methodId;
      await deps.db.transaction((tx) => recordAttempt(tx, failedId, "FAILED_VERIFY", now));
    }
    throw error;
  }
  if ("failure" in outcome)
    throw new ApiError("UNAUTHORIZED", { reason: `Invalid OTP code: ${outcome.failure}.` });
  return outcome.response;
}

/** The signed retry of an OTP verify; on the first call `publicKey` is the client key the code bound. */
async function otpSignedRetry(
  tx: Tx,
  deps: Deps,
  caller: Caller,
  method: AuthMethodRow,
  body: VerifyCredentialBody,
  http: SignedHttp,
  now: Date,
  publicKey?: string,
): Promise<SignedResponse> {
  return signedRetry(
    tx,
    deps,
    signedCall(caller, http, {
      accountId: method.account_id,
      action: "VERIFY_OTP",
      type: method.type,
      body,
      now,
      context: { authMethodId: method.id, publicKey },
      payloadExtra: { publicKey },
      // conventions §5.3: only the TEK from the bundle may sign (§5.5 step 3).
      allowedSigner: async (signer, request) => signer === request.context.publicKey,
      processingDelayMs: await walletProcessingDelayMs(tx, caller.platformId),
    }),
  );
}

/** `VERIFY_OTP`: the signed verify opens a session for the key that signed it (the bundle's TEK). */
export const performVerifyOtp: Performer = settlingErrors(async (tx, _deps, request, _signer, now) => {
  const id = String(request.context.authMethodId);
  const method = await findAuthMethod(tx, request.platform_id, id);
  if (!method) throw new ApiError("AUTH_METHOD_NOT_FOUND", { reason: `No credential ${id}.` });
  const session = await openSession(tx, method, String(request.context.publicKey), now);
  return { status: 200, body: toAuthSession(session, method) };
});
