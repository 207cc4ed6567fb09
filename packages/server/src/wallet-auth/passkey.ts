import { type AuthenticatorTransport, verifyRegistrationResponse } from "@simplewebauthn/server";
import { decodeAttestationObject } from "@simplewebauthn/server/helpers";
import type { Executor, Tx } from "../core/db/db.js";
import type { Deps } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import { canonicalJson, sha256Hex } from "../core/hash.js";
import type { Caller } from "../core/http/context.js";
import { newId, parseId } from "../core/ids.js";
import { assertionSignatureVerifies } from "./assertion-signature.js";
import { loadWalletAuthConfig } from "./auth-config.js";
import { checkClientPublicKey } from "./client-public-key.js";
import type { PasskeyAuthChallenge } from "./credential-schemas.js";
import { relyingParty } from "./passkey-relying-party.js";
import { updatePasskeyCounter } from "./passkey-store.js";
import {
  decodeAuthenticatorData,
  decodeClientData,
  fromBase64url,
  namesRpId,
  toBase64url,
} from "./passkey-webauthn.js";
import type { AuthSession } from "./schemas.js";
import { openSealedSession } from "./sessions.js";
import { findSignedRequest, insertSignedRequest, markCompleted } from "./signed-requests.js";
import type { AuthMethodRow } from "./store.js";
import { toAuthMethod } from "./wire.js";

/** A passkey challenge is answerable this long (conventions §5.1). */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60 * 1000;

export interface PasskeyRegistration {
  nickname: string;
  challenge: string;
  attestation: {
    credentialId: string;
    clientDataJson: string;
    attestationObject: string;
    transports?: string[];
  };
}

const badAttestation = (field: string, message: string) => invalidField(`attestation.${field}`, message);

/**
 * Checks a registration (conventions §5.6) and returns what the AuthMethod keeps: `clientDataJSON` is a
 * `webauthn.create` over the body's `challenge` from an allowed origin, the authenticator data names the RP
 * ID with user presence and carries `credentialId`, and the attestation statement verifies (`none`
 * accepted). Every failure is `400 INVALID_INPUT` on the field (conventions §5.8, create). Reads the
 * platform's configuration through `db`: pass the transaction's `tx` when called inside one.
 */
export async function passkeyFromAttestation(
  deps: Deps,
  caller: Caller,
  registration: PasskeyRegistration,
  db: Executor = deps.db,
): Promise<{ credentialId: string; publicKey: string; counter: number; transports: string[] | null }> {
  const { attestation } = registration;
  const rp = relyingParty(caller.environment, await loadWalletAuthConfig(db, caller.platformId));
  if (!rp)
    throw invalidField(
      "attestation",
      "passkeys need walletAuthConfig.passkey (rpId and origins) in the platform configuration",
    );
  const credentialId = fromBase64url(attestation.credentialId);
  if (!credentialId || credentialId.length === 0 || toBase64url(credentialId) !== attestation.credentialId)
    throw badAttestation("credentialId", "must be the credential's raw id in unpadded base64url");
  const clientData = decodeClientData(attestation.clientDataJson);
  if (!clientData)
    throw badAttestation("clientDataJson", "must be base64url JSON with type, challenge and origin");
  if (clientData.type !== "webauthn.create")
    throw badAttestation("clientDataJson", "type must be webauthn.create");
  if (clientData.challenge !== registration.challenge.replace(/=+$/, ""))
    throw invalidField("challenge", "does not match the challenge in attestation.clientDataJson");
  if (!rp.allowsOrigin(clientData.origin))
    throw badAttestation("clientDataJson", `origin ${clientData.origin} is not an allowed origin`);
  const objectBytes = fromBase64url(attestation.attestationObject);
  let authData: ReturnType<typeof decodeAuthenticatorData>;
  try {
    authData = objectBytes && decodeAuthenticatorData(decodeAttestationObject(objectBytes).get("authData"));
  } catch {
    authData = undefined;
  }
  if (!authData) throw badAttestation("attestationObject", "must be a base64url CBOR attestation object");
  if (!namesRpId(authData, rp.rpId)) throw badAttestation("attestationObject", `RP ID is not ${rp.rpId}`);
  if (!authData.flags.up) throw badAttestation("attestationObject", "the user-presence flag is not set");
  if (!authData.credentialID || !Buffer.from(authData.credentialID).equals(credentialId))
    throw badAttestation("credentialId", "does not match the credential id in the attestation object");
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response: {
        id: attestation.credentialId,
        rawId: attestation.credentialId,
        type: "public-key",
        response: {
          clientDataJSON: attestation.clientDataJson,
          attestationObject: attestation.attestationObject,
          ...(attestation.transports
            ? { transports: attestation.transports as AuthenticatorTransport[] }
            : {}),
        },
        clientExtensionResults: {},
      },
      expectedChallenge: clientData.challenge,
      expectedOrigin: clientData.origin,
      expectedRPID: rp.rpId,
      expectedType: "webauthn.create",
      requireUserVerification: false,
    });
  } catch (error) {
    throw badAttestation("attestationObject", `does not verify: ${(error as Error).message}`);
  }
  if (!verified.verified)
    throw badAttestation("attestationObject", "the attestation statement does not verify");
  const { credential } = verified.registrationInfo;
  return {
    credentialId: credential.id,
    publicKey: toBase64url(credential.publicKey),
    counter: credential.counter,
    transports: attestation.transports ?? null,
  };
}

/**
 * `POST /auth/credentials/{id}/challenge` for PASSKEY: a single-use challenge bound to clientPublicKey.
 * `challenge` = lowercase hex SHA-256 of the canonical JSON {accountId, authMethodId, clientPublicKey
 * (lowercase hex), expiresAt, requestId} (conventions §5.6); it is kept as a `PASSKEY_AUTH` row of
 * signed_requests that expires in 5 minutes and is completed by the one verify that uses it.
 */
export async function passkeyChallenge(
  tx: Tx,
  _deps: Deps,
  _caller: Caller,
  method: AuthMethodRow,
  clientPublicKey: string,
  now: Date,
): Promise<PasskeyAuthChallenge> {
  const key = checkClientPublicKey(clientPublicKey).toLowerCase();
  const requestId = newId("Request");
  const expiresAt = new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_MS).toISOString();
  const challenge = sha256Hex(
    canonicalJson({
      accountId: method.account_id,
      authMethodId: method.id,
      clientPublicKey: key,
      expiresAt,
      requestId,
    }),
  );
  await insertSignedRequest(tx, {
    id: requestId,
    platform_id: method.platform_id,
    account_id: method.account_id,
    action: "PASSKEY_AUTH",
    method: "POST",
    path: `/auth/credentials/${method.id}/verify`,
    body_sha256: sha256Hex(""),
    payload_to_sign: challenge,
    context: { authMethodId: method.id, clientPublicKey: key, challenge },
    state: "ISSUED",
    stamp_sha256: null,
    ready_at: null,
    result_status: null,
    result_body: null,
    expires_at: new Date(expiresAt),
    completed_at: null,
    created_at: now,
  });
  return { ...toAuthMethod(method), challenge, requestId, expiresAt };
}

const refused = (why: string) =>
  new ApiError("UNAUTHORIZED", { reason: `The passkey assertion was refused: ${why}.` });

/** The assertion's fields, decoded; `400 INVALID_INPUT` on the first that is not what WebAuthn produces. */
function decodeAssertion(assertion: Record<string, unknown>) {
  const credentialId = assertion.credentialId;
  if (typeof credentialId !== "string" || !fromBase64url(credentialId))
    throw invalidField("assertion.credentialId", "must be base64url");
  const clientData = decodeClientData(assertion.clientDataJson);
  if (!clientData)
    throw invalidField("assertion.clientDataJson", "must be base64url JSON with type, challenge and origin");
  const authBytes = fromBase64url(assertion.authenticatorData);
  const authData = authBytes && decodeAuthenticatorData(authBytes);
  if (!authData) throw invalidField("assertion.authenticatorData", "must be base64url authenticator data");
  if (!fromBase64url(assertion.signature)) throw invalidField("assertion.signature", "must be base64url");
  const userHandle = assertion.userHandle;
  if (userHandle !== undefined && userHandle !== null && !fromBase64url(userHandle))
    throw invalidField("assertion.userHandle", "must be base64url");
  return {
    credentialId,
    clientData,
    authData,
    clientDataJson: assertion.clientDataJson as string,
    authenticatorData: assertion.authenticatorData as string,
    signature: assertion.signature as string,
    userHandle: typeof userHandle === "string" ? userHandle : undefined,
  };
}

/**
 * `POST /auth/credentials/{id}/verify` for PASSKEY: the WebAuthn assertion over the challenge → session.
 * `Request-Id` names the challenge (401 REQUEST_ID_MISSING, 404 REQUEST_NOT_FOUND); then, each a
 * `401 UNAUTHORIZED` naming the check (conventions §5.6): challenge unused and unexpired, credential id
 * registered to this AuthMethod, `webauthn.get`, the challenge, origin, RP ID, user presence, a counter
 * that increases when non-zero, and the signature. On success the challenge is used up, the counter kept,
 * and the session key sealed to the challenge's clientPublicKey.
 */
export async function verifyPasskey(
  tx: Tx,
  _deps: Deps,
  caller: Caller,
  method: AuthMethodRow,
  body: { assertion: Record<string, unknown> },
  requestIdHeader: string | undefined,
  now: Date,
): Promise<AuthSession> {
  if (requestIdHeader === undefined || requestIdHeader === "")
    throw new ApiError("REQUEST_ID_MISSING", {
      reason: "A passkey verify needs the Request-Id header naming the challenge.",
    });
  const assertion = decodeAssertion(body.assertion);
  const id = parseId("Request", requestIdHeader);
  const request = id ? await findSignedRequest(tx, caller.platformId, id, true) : undefined;
  if (request?.action !== "PASSKEY_AUTH" || request.context.authMethodId !== method.id)
    throw new ApiError("REQUEST_NOT_FOUND", {
      reason: `No passkey challenge ${requestIdHeader} for this credential.`,
    });
  if (request.state !== "ISSUED") throw refused("the challenge was already used");
  if (now.getTime() > request.expires_at.getTime()) throw refused("the challenge expired");
  if (method.type !== "PASSKEY" || method.credential_id === null || method.passkey_public_key === null)
    throw refused("the credential is not a passkey");
  if (assertion.credentialId !== method.credential_id)
    throw refused("the credential id is not registered to this credential");
  const { clientData, authData } = assertion;
  if (clientData.type !== "webauthn.get") throw refused("clientDataJson type is not webauthn.get");
  const expectedChallenge = toBase64url(String(request.context.challenge));
  if (clientData.challenge !== expectedChallenge) throw refused("the challenge is not the one issued");
  const rp = relyingParty(caller.environment, await loadWalletAuthConfig(tx, caller.platformId));
  if (!rp?.allowsOrigin(clientData.origin)) throw refused(`origin ${clientData.origin} is not allowed`);
  if (!namesRpId(authData, rp.rpId)) throw refused(`the RP ID is not ${rp.rpId}`);
  if (!authData.flags.up) throw refused("the user-presence flag is not set");
  const stored = method.passkey_counter ?? 0;
  if ((authData.counter > 0 || stored > 0) && authData.counter <= stored)
    throw refused(`the sign counter ${authData.counter} does not increase past ${stored}`);
  let verified: boolean;
  try {
    verified = await assertionSignatureVerifies(assertion, {
      challenge: expectedChallenge,
      origin: clientData.origin,
      rpId: rp.rpId,
      publicKey: method.passkey_public_key,
      counter: stored,
    });
  } catch (error) {
    throw refused(`the assertion does not verify (${(error as Error).message})`);
  }
  if (!verified) throw refused("the signature does not verify");
  await updatePasskeyCounter(tx, method.id, authData.counter);
  await markCompleted(tx, request.id, { state: "ANSWERED", status: 200, body: null, stampSha256: null }, now);
  return openSealedSession(tx, method, String(request.context.clientPublicKey), now);
}
