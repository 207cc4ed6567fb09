import type { Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller, Environment } from "../core/http/context.js";
import { parseId } from "../core/ids.js";
import { findWalletAccount, type WalletAccountRow } from "./account-store.js";
import { walletProcessingDelayMs } from "./auth-config.js";
import { newAuthMethodRow } from "./credential-rows.js";
import type { CreateCredentialBody } from "./credential-schemas.js";
import { oauthIdentity } from "./oauth.js";
import { issueOtpChallenge } from "./otp.js";
import { contactTiedElsewhere } from "./otp-store.js";
import { passkeyFromAttestation } from "./passkey.js";
import type { AuthMethod } from "./schemas.js";
import { isFirstCall, type SignedHttp, settlingErrors, signedCall } from "./signed-calls.js";
import { type Performer, type SignedResponse, signedRetry } from "./signed-retry.js";
import { activeSessionsByKey, insertAuthMethod, listAuthMethods } from "./store.js";
import { checkProvisioned, customerContacts, lockAccount, walletAccountOrThrow } from "./wallet-account.js";
import { toAuthMethod } from "./wire.js";

/** `GET /auth/credentials?accountId=` (conventions §5.2): live credentials; an unknown account lists none. */
export async function listCredentials(
  deps: Deps,
  caller: Caller,
  accountId: string,
): Promise<{ data: AuthMethod[] }> {
  const id = parseId("InternalAccount", accountId);
  const account = id ? await findWalletAccount(deps.db, caller.platformId, id) : undefined;
  if (!account) return { data: [] };
  checkProvisioned(account);
  return { data: (await listAuthMethods(deps.db, account.id)).map((row) => toAuthMethod(row)) };
}

/** What the first call of an add fixes for the retry (and the reconciler) to create. */
interface NewCredential {
  nickname: string;
  environment: Environment;
  oidc?: { issuer: string; audience: string; subject: string };
  passkey?: { credentialId: string; publicKey: string; counter: number; transports: string[] | null };
}

/** The OIDC or WebAuthn proof of a new credential, checked on the first call only (tokens go stale). */
async function proveCredential(
  deps: Deps,
  caller: Caller,
  body: CreateCredentialBody,
  now: Date,
): Promise<Pick<NewCredential, "oidc" | "passkey"> & { nickname?: string }> {
  if (body.type === "OAUTH") {
    const { nickname, ...oidc } = await oauthIdentity(deps, caller, body.oidcToken, now);
    return { nickname, oidc };
  }
  if (body.type === "PASSKEY") {
    const nickname = body.nickname.trim();
    if (nickname === "") throw invalidField("nickname", "must not be blank");
    const passkey = await passkeyFromAttestation(deps, caller, { ...body, nickname });
    return { nickname, passkey };
  }
  return {};
}

/** The one-per-account and one-per-identity rules (conventions §5.8 "create"), checked on both calls. */
async function checkAddable(tx: Tx, account: WalletAccountRow, type: string, credential: NewCredential) {
  const live = await listAuthMethods(tx, account.id);
  if (type === "EMAIL_OTP" || type === "SMS_OTP") {
    if (live.some((m) => m.type === type))
      throw new ApiError(
        type === "EMAIL_OTP" ? "EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS" : "SMS_OTP_CREDENTIAL_ALREADY_EXISTS",
      );
    if (await contactTiedElsewhere(tx, account.platform_id, [account.id], type, credential.nickname))
      throw new ApiError(
        type === "EMAIL_OTP" ? "EMAIL_OTP_EMAIL_ALREADY_EXISTS" : "SMS_OTP_PHONE_NUMBER_ALREADY_EXISTS",
        {
          reason: `${credential.nickname} is already tied to another wallet's ${type} credential.`,
        },
      );
  }
  const passkey = credential.passkey;
  if (passkey && live.some((m) => m.credential_id === passkey.credentialId))
    throw new ApiError("PASSKEY_CREDENTIAL_ALREADY_EXISTS", {
      reason: `WebAuthn credential ${passkey.credentialId} is already registered on ${account.id}.`,
    });
  const oidc = credential.oidc;
  if (oidc && live.some((m) => m.oidc_issuer === oidc.issuer && m.oidc_subject === oidc.subject))
    throw invalidField(
      "oidcToken",
      `the identity ${oidc.subject} at ${oidc.issuer} is already a credential of the account`,
    );
}

/** The OTP credential's nickname: the customer's e-mail or E.164 phone on file. */
async function contactFor(tx: Tx, account: WalletAccountRow, type: "EMAIL_OTP" | "SMS_OTP"): Promise<string> {
  const contacts = await customerContacts(tx, account);
  const value = type === "EMAIL_OTP" ? contacts.email : contacts.phoneNumber;
  if (!value)
    throw new ApiError("MISSING_MANDATORY_USER_INFO", {
      reason: `The wallet's customer has no ${type === "EMAIL_OTP" ? "email" : "phoneNumber"} for an ${type} credential.`,
    });
  return value;
}

/**
 * `POST /auth/credentials` (conventions §5.2, flows 3, 5, 10): the first call checks the proof and the
 * limits and answers the `202`; the retry, signed by an active session of the account, creates the
 * credential (`201`); an OTP credential's response carries its first `otpEncryptionTargetBundle`.
 */
export async function addCredential(
  deps: Deps,
  caller: Caller,
  body: CreateCredentialBody,
  http: SignedHttp,
): Promise<SignedResponse> {
  const now = nowFor(deps, caller);
  const first = isFirstCall(http);
  await walletAccountOrThrow(deps.db, caller, body.accountId);
  // OIDC key sets and attestations are checked outside the transaction (they may fetch).
  const proof = first ? await proveCredential(deps, caller, body, now) : {};
  return deps.db.transaction(async (tx) => {
    const account = await walletAccountOrThrow(tx, caller, body.accountId);
    let context: Record<string, unknown> = {};
    if (first) {
      const nickname =
        body.type === "EMAIL_OTP" || body.type === "SMS_OTP"
          ? await contactFor(tx, account, body.type)
          : proof.nickname;
      const credential: NewCredential = {
        ...proof,
        nickname: nickname ?? "",
        environment: caller.environment,
      };
      await checkAddable(tx, account, body.type, credential);
      context = { credential };
    }
    return signedRetry(
      tx,
      deps,
      signedCall(caller, http, {
        accountId: account.id,
        action: "ADD_CREDENTIAL",
        type: body.type,
        body,
        now,
        context,
        allowedSigner: async (publicKey) =>
          (await activeSessionsByKey(tx, [account.id], publicKey, now)).length > 0,
        processingDelayMs: await walletProcessingDelayMs(tx, caller.platformId),
      }),
    );
  });
}

/** `ADD_CREDENTIAL`: the signed add creates the credential fixed at the first call, limits checked again. */
export const performAddCredential: Performer = settlingErrors(async (tx, deps, request, _signer, now) => {
  const body = request.context.body as CreateCredentialBody;
  const credential = request.context.credential as NewCredential;
  await lockAccount(tx, request.account_id);
  const account = await findWalletAccount(tx, request.platform_id, request.account_id);
  if (!account) throw new ApiError("ACCOUNT_NOT_FOUND");
  await checkAddable(tx, account, body.type, credential);
  const row = newAuthMethodRow({
    platformId: request.platform_id,
    accountId: account.id,
    type: body.type,
    nickname: credential.nickname,
    now,
  });
  if (credential.oidc) {
    row.oidc_issuer = credential.oidc.issuer;
    row.oidc_audience = credential.oidc.audience;
    row.oidc_subject = credential.oidc.subject;
  }
  if (credential.passkey) {
    row.credential_id = credential.passkey.credentialId;
    row.passkey_public_key = credential.passkey.publicKey;
    row.passkey_counter = credential.passkey.counter;
    row.passkey_transports = credential.passkey.transports;
  }
  await insertAuthMethod(tx, row);
  if (row.type !== "EMAIL_OTP" && row.type !== "SMS_OTP") return { status: 201, body: toAuthMethod(row) };
  const bundle = await issueOtpChallenge(tx, deps, row, credential.environment, now);
  return { status: 201, body: toAuthMethod(row, { otpEncryptionTargetBundle: bundle }) };
});
