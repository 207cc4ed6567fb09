/**
 * Strong customer authentication wire types, mirroring packages/server/src/sca/schemas.ts field for field
 * (docs/guides/strong-customer-authentication.md). Re-exported from index.ts.
 */

/** OTP: a 6-digit code sent to the customer's phone (else e-mail). PASSKEY: the enrolled passkey. */
export type ScaFactor = "OTP" | "PASSKEY";
export type ScaPurpose = "LOGIN" | "TRUST_BENEFICIARY" | "UNTRUST_BENEFICIARY" | "PAYMENT";

/** A WebAuthn assertion (`navigator.credentials.get`), base64url fields. */
export interface ScaPasskeyAssertion {
  credentialId: string;
  clientDataJson: string;
  authenticatorData: string;
  signature: string;
  userHandle?: string;
}

/** An issued SCA challenge; answer it before `expiresAt` with its `requestId` (single use). */
export interface ScaChallenge {
  requestId: string;
  customerId: string;
  purpose: ScaPurpose;
  factor: ScaFactor;
  /** PASSKEY only: lowercase hex; UTF-8 encode it as the WebAuthn challenge. */
  challenge?: string;
  expiresAt: string;
}

export interface ScaLoginBody {
  customerId: string;
  /** Default OTP. */
  factor?: ScaFactor;
}

/** The answer to a challenge: `code` for OTP (sandbox `000000`), `assertion` for PASSKEY. */
export interface ScaCompleteBody {
  requestId: string;
  code?: string;
  assertion?: ScaPasskeyAssertion;
}

/** The answer without the `requestId`: what `sca.login` takes. */
export type ScaAnswer = Omit<ScaCompleteBody, "requestId">;

/** A login session, id `Session:<uuid>`, 180 days on the platform's clock. */
export interface ScaSession {
  id: string;
  customerId: string;
  factor: ScaFactor;
  createdAt: string;
  sessionExpiresAt: string;
}

export interface EnrollScaPasskeyBody {
  customerId: string;
  nickname: string;
  /** base64url; in clientDataJson. */
  challenge: string;
  attestation: {
    credentialId: string;
    clientDataJson: string;
    attestationObject: string;
    transports?: ("usb" | "nfc" | "ble" | "internal" | "hybrid")[];
  };
}

/** The customer-level SCA passkey factor (one per customer), id `AuthMethod:<uuid>`. */
export interface ScaPasskey {
  id: string;
  customerId: string;
  nickname: string;
  credentialId: string;
  createdAt: string;
}

/**
 * The body of `POST /customers/{customerId}/verify-email/confirm` and `/verify-phone/confirm` (the hosted
 * API's `ContactVerificationConfirmRequest`): the 6-digit code sent (sandbox `000000`).
 */
export interface ContactVerificationConfirmBody {
  code: string;
}

/**
 * The answer to `/trust` or `/untrust` (the hosted API's `BeneficiaryTrustStart`): the challenge to answer
 * with `confirmBeneficiaryTrust` / `confirmBeneficiaryUntrust`; absent when `/trust` finds it trusted.
 */
export interface BeneficiaryTrustStart {
  scaChallenge?: ScaChallenge;
}

/**
 * The body of `/trust/confirm` and `/untrust/confirm` (`BeneficiaryTrustConfirmRequest`): `code` for an OTP
 * challenge (sandbox `000000`), or `passkeyAssertion` with `origin`; `challengeId` is the challenge's
 * `requestId` (default: the account's open one).
 */
export interface BeneficiaryTrustConfirmRequest {
  challengeId?: string | null;
  code?: string | null;
  passkeyAssertion?: ScaPasskeyAssertion | null;
  origin?: string | null;
}

/** The answer to a trust confirmation (`BeneficiaryTrustConfirm`): whether the account is now trusted. */
export interface BeneficiaryTrustConfirm {
  trusted: boolean;
}
