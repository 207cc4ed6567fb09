/**
 * Strong customer authentication wire types, mirroring packages/server/src/sca/schemas.ts field for field
 * (docs/guides/strong-customer-authentication.md). Re-exported from index.ts.
 */

/**
 * The hosted API's `ScaFactor`. SMS_OTP: a 6-digit code sent by SMS to the customer's phone (else its
 * e-mail). PASSKEY: the enrolled passkey. TOTP is named but not offered by paysvc.
 */
export type ScaFactor = "SMS_OTP" | "TOTP" | "PASSKEY";
export type ScaPurpose = "LOGIN" | "TRUST_BENEFICIARY" | "UNTRUST_BENEFICIARY" | "PAYOUT";

/** A WebAuthn assertion (`navigator.credentials.get`), base64url fields. */
export interface ScaPasskeyAssertion {
  credentialId: string;
  clientDataJson: string;
  authenticatorData: string;
  signature: string;
  userHandle?: string;
}

/**
 * The hosted API's `ScaChallenge` (a quote's `scaChallenge`, `BeneficiaryTrustStart.scaChallenge`): answer it
 * before `expiresAt`. A PASSKEY one carries the options for `navigator.credentials.get`.
 */
export interface ScaChallenge {
  /** `Request:<uuid>`; single use. */
  id: string;
  expiresAt: string;
  factor: ScaFactor;
  availableFactors: ScaFactor[];
  purpose: ScaPurpose;
  passkeyAssertionOptions?: Record<string, unknown> | null;
  passkeyAllowedOrigins?: string[] | null;
}

/** The hosted API's `ScaFactorView`: `credentialId` and `name` for a passkey. */
export interface ScaFactorView {
  factor: ScaFactor;
  credentialId?: string;
  name?: string;
}

/** `GET /sca/factors` (`ScaFactorList`). */
export interface ScaFactorList {
  factors: ScaFactorView[];
}

/** `POST /sca/factors` body (`ScaFactorEnrollRequestOneOf`); only PASSKEY is offered. */
export interface ScaFactorEnrollRequest {
  type: "PASSKEY" | "TOTP";
}

/** `POST /sca/factors` answer (`PasskeyEnrollmentStart`): pass `options` to `navigator.credentials.create`. */
export interface PasskeyEnrollmentStart {
  type: "PASSKEY";
  options: Record<string, unknown>;
  allowedOrigins: string[];
  relyingPartyId: string;
}

/** The WebAuthn `RegistrationResponseJSON` (`@simplewebauthn/browser` `startRegistration`). */
export interface PasskeyRegistrationCredential {
  id: string;
  rawId: string;
  type: "public-key";
  response: { clientDataJSON: string; attestationObject: string; transports?: string[] };
  clientExtensionResults?: Record<string, unknown>;
  authenticatorAttachment?: string;
}

/** `POST /sca/factors/confirm` body (`PasskeyEnrollmentConfirmRequest`). */
export interface ScaFactorConfirmRequest {
  type: "PASSKEY";
  origin: string;
  credential: PasskeyRegistrationCredential;
}

/** `POST /sca/factors/confirm` answer (`PasskeyEnrollmentConfirmResponse`). */
export interface PasskeyEnrollmentConfirmResponse {
  type: "PASSKEY";
  factor: ScaFactorView;
}

/** `POST /sca/login/start` body (`ScaLoginStartRequest`). */
export interface ScaLoginStartRequest {
  factor: ScaFactor;
}

/** `POST /sca/login/start` answer (`ScaLoginStart`); PASSKEY: `passkeyOptions` for `navigator.credentials.get`. */
export interface ScaLoginStart {
  factor: ScaFactor;
  challengeId?: string | null;
  expiresAt?: string | null;
  passkeyOptions?: Record<string, unknown> | null;
  allowedOrigins?: string[] | null;
  relyingPartyId?: string | null;
}

/** How a challenge is answered: `code` (sandbox `000000`), or `passkeyAssertion` with `origin`. */
export interface ScaAnswer {
  code?: string | null;
  passkeyAssertion?: ScaPasskeyAssertion | null;
  origin?: string | null;
}

/** `POST /sca/login/complete` body (`ScaLoginCompleteRequest`). */
export interface ScaLoginCompleteRequest extends ScaAnswer {
  factor: ScaFactor;
  endUserIpAddress: string;
  /** Default: the customer's open login challenge. */
  challengeId?: string | null;
}

/** `POST /sca/login/complete` answer (`ScaLoginComplete`): a session lasts 180 days. */
export interface ScaLoginComplete {
  status: "SUCCESS";
  sessionExpiresAt?: string | null;
}

export type ScaSecurityEventType = "RESET_PASSWORD_COMPLETED" | "FAILED_LOGIN_ATTEMPT";

/** `POST /sca/record-event` body (`RecordSecurityEventRequest`). */
export interface RecordSecurityEventRequest {
  eventType: ScaSecurityEventType;
}

/** `POST /sca/record-event` answer (`RecordSecurityEventResponse`). */
export interface RecordSecurityEventResponse {
  eventType: ScaSecurityEventType;
  suspended: boolean;
  lockedUntil: string | null;
  failedAttempts: number;
  customerId: string;
}

/** `POST /quotes/{quoteId}/authorize` body (`ScaAuthorization`). */
export interface ScaAuthorization extends ScaAnswer {
  endUserIpAddress?: string | null;
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
 * The body of `/trust/confirm` and `/untrust/confirm` (`BeneficiaryTrustConfirmRequest`): `code` for an
 * SMS_OTP challenge (sandbox `000000`), or `passkeyAssertion` with `origin`; `challengeId` is the
 * challenge's `id` (default: the account's open one).
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

/** The hosted `TotpEnrollmentStart`: give `totpUri` (or `secretBase32Encoded`) to the authenticator app. */
export interface TotpEnrollmentStart {
  type: "TOTP";
  /** The secret, hex; send it back with `confirmFactorEnrollment`. */
  secret: string;
  secretBase32Encoded: string;
  /** `otpauth://totp/…` (SHA1, 6 digits, 30 s). */
  totpUri: string;
}

/** The hosted `TotpEnrollmentConfirmResponse`: recovery codes, shown once, each usable once as `code`. */
export interface TotpEnrollmentConfirmResponse {
  type: "TOTP";
  recoveryCodes: string[];
}

/** The hosted `ScaFactorEnrollStartOneOf`. */
export type ScaFactorEnrollStart = TotpEnrollmentStart | PasskeyEnrollmentStart;
/** The hosted `ScaFactorConfirmResponseOneOf`. */
export type ScaFactorConfirmResponse = TotpEnrollmentConfirmResponse | PasskeyEnrollmentConfirmResponse;

/** The hosted `TwoFactorResetStartRequest`. */
export interface TwoFactorResetStartRequest {
  factor: ScaFactor;
}

/** The hosted `TwoFactorResetStart`: the person proves their identity on `verificationLink`. */
export interface TwoFactorResetStart {
  resetId: string;
  livenessAccessToken?: string | null;
  verificationLink?: string | null;
  expiresAt?: string | null;
}

/** The hosted `TwoFactorResetStatus`. */
export interface TwoFactorResetStatus {
  status: "INITIATED" | "PENDING_REVIEW" | "LIVENESS_PASSED" | "COMPLETED" | "REJECTED" | "EXPIRED";
  factor: ScaFactor;
  enrollmentStatus?: "PENDING" | "COMPLETED" | null;
  expiresAt: string;
  completedAt?: string | null;
}

/**
 * The hosted `TwoFactorResetCompleteRequest`: `mobile` (`countryCode` such as `+44`, then `number`) becomes the
 * customer's `phoneNumber` as the reset completes; joined, they must be an E.164 number.
 */
export interface TwoFactorResetCompleteRequest {
  mobile?: { countryCode: string; number: string };
}
