import {
  type AuthenticatorTransport,
  generateRegistrationOptions,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { isUniqueViolation } from "../core/db/sqlstate.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError, invalidField } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { newId } from "../core/ids.js";
import { toBase64url } from "../wallet-auth/passkey-webauthn.js";
import { issueChallenge } from "./challenges.js";
import { findLivePasskey, insertPasskey, markPasskeyDeleted, type PasskeyRow } from "./passkey-store.js";
import { findScaCustomerOrThrow, readScaCustomerOrThrow } from "./regions.js";
import type {
  ScaFactorConfirmRequest,
  ScaFactorConfirmResponse,
  ScaFactorEnrollRequest,
  ScaFactorEnrollStart,
  ScaFactorList,
  ScaFactorView,
} from "./schemas.js";
import { requireLiveSession } from "./sessions.js";
import * as store from "./store.js";
import { confirmTotpEnrollment, startTotpEnrollment } from "./totp.js";
import { deleteTotp, findTotp } from "./totp-store.js";
import { availableFactors, scaRelyingParty } from "./webauthn.js";

const ONE_PER_CUSTOMER = "sca_passkeys_one_per_customer_key";
/** The `name` of an enrolled passkey (the hosted request names none). */
const PASSKEY_NAME = "Passkey";

const passkeyView = (row: PasskeyRow): ScaFactorView => ({
  factor: "PASSKEY",
  credentialId: row.credential_id,
  name: row.nickname,
});

const alreadyEnrolled = (customerId: string) =>
  new ApiError("PASSKEY_ALREADY_ENROLLED", {
    reason: `Customer ${customerId} already has an enrolled SCA passkey; delete it before enrolling another.`,
  });

const TOTP_NAME = "Authenticator app";

/**
 * `GET /sca/factors?customerId=` (`listScaFactors`): SMS_OTP when a phone or e-mail is on file, the passkey
 * and the TOTP factor once enrolled (`credentialId`: what `DELETE /sca/factors/{credentialId}` takes).
 */
export async function listFactors(deps: Deps, caller: Caller, customerId: string): Promise<ScaFactorList> {
  const customer = await readScaCustomerOrThrow(deps.db, caller, customerId);
  const passkey = await findLivePasskey(deps.db, customer.id);
  const totp = await findTotp(deps.db, customer.id, "ACTIVE");
  const factors = (await availableFactors(deps.db, customer)).map((factor): ScaFactorView => {
    if (factor === "PASSKEY" && passkey) return passkeyView(passkey);
    if (factor === "TOTP" && totp) return { factor, credentialId: totp.id, name: TOTP_NAME };
    return { factor };
  });
  return { factors };
}

/**
 * `POST /sca/factors?customerId= {type: PASSKEY}` (`startScaFactorEnrollment`): under a live SCA session,
 * the WebAuthn creation options for the customer's one passkey (`409 PASSKEY_ALREADY_ENROLLED` when it has
 * one). The challenge is answerable for 5 minutes by `/sca/factors/confirm`; a new start abandons it.
 */
export async function startEnrollment(
  deps: Deps,
  caller: Caller,
  customerId: string,
  body: ScaFactorEnrollRequest,
): Promise<ScaFactorEnrollStart> {
  if (body.type === "TOTP") return startTotpEnrollment(deps, caller, customerId);
  return deps.db.transaction(async (tx) => {
    const customer = await findScaCustomerOrThrow(tx, caller, customerId);
    const now = nowFor(deps, caller);
    if (await findLivePasskey(tx, customer.id)) throw alreadyEnrolled(customer.id);
    await requireLiveSession(tx, customer.id, now);
    const rp = await scaRelyingParty(tx, caller);
    const row = await issueChallenge(deps, tx, caller, {
      customer,
      purpose: "ENROLL_PASSKEY",
      factor: "PASSKEY",
      now,
    });
    const email = typeof customer.profile.email === "string" ? customer.profile.email : undefined;
    const options = await generateRegistrationOptions({
      rpName: rp.rpId,
      rpID: rp.rpId,
      userName: email ?? customer.id,
      userID: new TextEncoder().encode(customer.id),
      challenge: new TextEncoder().encode(row.webauthn_challenge ?? ""),
      attestationType: "none",
      timeout: 5 * 60 * 1000,
      authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
    });
    return { type: "PASSKEY", options: { ...options }, allowedOrigins: rp.origins, relyingPartyId: rp.rpId };
  });
}

/**
 * `POST /sca/factors/confirm?customerId= {type: PASSKEY, origin, credential}` (`confirmScaFactorEnrollment`):
 * verifies the registration (challenge, origin, RP ID, user presence, attestation; `none` accepted) with
 * @simplewebauthn/server and enrolls the passkey. A registration that does not verify is `400
 * INVALID_INPUT` on `credential`; no enrolment waiting (never started, used, expired) is `409 CONFLICT`.
 */
export async function confirmEnrollment(
  deps: Deps,
  caller: Caller,
  customerId: string,
  body: ScaFactorConfirmRequest,
): Promise<ScaFactorConfirmResponse> {
  if (body.type === "TOTP") return confirmTotpEnrollment(deps, caller, customerId, body);
  const { credential, origin } = body;
  if (!origin) throw invalidField("origin", "is required for a PASSKEY enrolment");
  if (!credential) throw invalidField("credential", "is required for a PASSKEY enrolment");
  try {
    return await deps.db.transaction(async (tx) => {
      const customer = await findScaCustomerOrThrow(tx, caller, customerId);
      const now = nowFor(deps, caller);
      if (await findLivePasskey(tx, customer.id)) throw alreadyEnrolled(customer.id);
      await requireLiveSession(tx, customer.id, now);
      const challenge = await store.latestOpenChallenge(tx, customer.id, "ENROLL_PASSKEY");
      if (!challenge || challenge.webauthn_challenge === null || now >= challenge.expires_at)
        throw new ApiError("CONFLICT", {
          reason: `No passkey enrolment of customer ${customer.id} is waiting; call POST /sca/factors first.`,
        });
      const rp = await scaRelyingParty(tx, caller);
      if (!rp.allowsOrigin(origin)) throw invalidField("origin", `${origin} is not an allowed origin`);
      let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
      try {
        verified = await verifyRegistrationResponse({
          response: {
            ...credential,
            response: {
              ...credential.response,
              ...(credential.response.transports
                ? { transports: credential.response.transports as AuthenticatorTransport[] }
                : {}),
            },
            clientExtensionResults: credential.clientExtensionResults ?? {},
            authenticatorAttachment: undefined,
          },
          expectedChallenge: toBase64url(challenge.webauthn_challenge),
          expectedOrigin: origin,
          expectedRPID: rp.rpId,
          expectedType: "webauthn.create",
          requireUserVerification: false,
        });
      } catch (error) {
        throw invalidField("credential", `does not verify: ${(error as Error).message}`);
      }
      if (!verified.verified) throw invalidField("credential", "the attestation does not verify");
      const registered = verified.registrationInfo.credential;
      const row: PasskeyRow = {
        id: newId("AuthMethod"),
        platform_id: caller.platformId,
        customer_id: customer.id,
        nickname: PASSKEY_NAME,
        credential_id: registered.id,
        public_key: toBase64url(registered.publicKey),
        counter: registered.counter,
        transports: credential.response.transports ?? null,
        deleted_at: null,
        created_at: now,
      };
      await insertPasskey(tx, row);
      await store.setChallengeState(tx, challenge.id, { state: "COMPLETED", completedAt: now });
      return { type: "PASSKEY", factor: passkeyView(row) };
    });
  } catch (error) {
    // Two concurrent enrolments: the partial unique index lets one in.
    if (isUniqueViolation(error, ONE_PER_CUSTOMER)) throw alreadyEnrolled(customerId);
    throw error;
  }
}

/**
 * `DELETE /sca/factors/{credentialId}?customerId=` (`deleteScaFactor`) under a live SCA session: the
 * customer's passkey with that WebAuthn credential id; none (or deleted) is `404 AUTH_METHOD_NOT_FOUND`.
 */
export async function deleteFactor(
  deps: Deps,
  caller: Caller,
  customerId: string,
  credentialId: string,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const customer = await findScaCustomerOrThrow(tx, caller, customerId);
    const row = await findLivePasskey(tx, customer.id);
    const totp = await findTotp(tx, customer.id, "ACTIVE");
    if (row?.credential_id !== credentialId && totp?.id !== credentialId)
      throw new ApiError("AUTH_METHOD_NOT_FOUND", {
        reason: `Customer ${customer.id} has no SCA factor with credential id ${credentialId}.`,
      });
    const now = nowFor(deps, caller);
    await requireLiveSession(tx, customer.id, now);
    if (row?.credential_id === credentialId) await markPasskeyDeleted(tx, row.id, now);
    else await deleteTotp(tx, customer.id, now);
  });
}
