import { type Static, Type } from "typebox";
import { DateTime, StringEnum } from "../core/http/schemas.js";

const object = <T extends Parameters<typeof Type.Object>[0]>(properties: T) =>
  Type.Object(properties, { additionalProperties: false });
const Id = Type.String({ minLength: 1, maxLength: 100 });
const Code = Type.String({ pattern: "^[0-9]{6}$", description: "The 6-digit code (sandbox: `000000`)." });

export const scaFactors = ["OTP", "PASSKEY"] as const;
export const ScaFactor = StringEnum(scaFactors, {
  description:
    "OTP: a 6-digit code sent to the customer's phone (else e-mail). PASSKEY: the enrolled passkey.",
});

/** A WebAuthn assertion (`navigator.credentials.get`), base64url fields, as for wallet passkeys. */
export const PasskeyAssertion = object({
  credentialId: Type.String({ minLength: 1, maxLength: 1024 }),
  clientDataJson: Type.String({ minLength: 1, maxLength: 8192 }),
  authenticatorData: Type.String({ minLength: 1, maxLength: 8192 }),
  signature: Type.String({ minLength: 1, maxLength: 2048 }),
  userHandle: Type.Optional(Type.String({ maxLength: 1024 })),
});
export type PasskeyAssertion = Static<typeof PasskeyAssertion>;

/** An issued SCA challenge; answer it before `expiresAt` with its `requestId`. */
export const ScaChallenge = Type.Object({
  requestId: Type.String({ description: "`Request:<uuid>`; single use." }),
  customerId: Type.String(),
  purpose: StringEnum(["LOGIN", "TRUST_BENEFICIARY", "UNTRUST_BENEFICIARY", "PAYMENT"]),
  factor: ScaFactor,
  challenge: Type.Optional(
    Type.String({ description: "PASSKEY only: lowercase hex; UTF-8 encode it as the WebAuthn challenge." }),
  ),
  expiresAt: DateTime(),
});
export type ScaChallenge = Static<typeof ScaChallenge>;

export const LoginBody = object({ customerId: Id, factor: Type.Optional(ScaFactor) });
export type LoginBody = Static<typeof LoginBody>;

/** The answer to a challenge: `code` for OTP, `assertion` for PASSKEY. */
export const CompleteBody = object({
  requestId: Id,
  code: Type.Optional(Code),
  assertion: Type.Optional(PasskeyAssertion),
});
export type CompleteBody = Static<typeof CompleteBody>;

export const ScaSession = Type.Object({
  id: Type.String({ description: "`Session:<uuid>`" }),
  customerId: Type.String(),
  factor: ScaFactor,
  createdAt: DateTime(),
  sessionExpiresAt: DateTime({ description: "180 days after login, on the platform's clock." }),
});
export type ScaSession = Static<typeof ScaSession>;

export const SessionParams = Type.Object({ sessionId: Type.String() });

/** The hosted API's `ContactVerificationConfirmRequest`: the code sent by `/verify-email` or `/verify-phone`. */
export const ContactVerificationConfirmBody = object({ code: Code });
export type ContactVerificationConfirmBody = Static<typeof ContactVerificationConfirmBody>;

export const CustomerParams = Type.Object({ customerId: Type.String() });

export const EnrollPasskeyBody = object({
  customerId: Id,
  nickname: Type.String({ minLength: 1, maxLength: 100, pattern: "^[A-Za-z0-9 ._'()-]+$" }),
  challenge: Type.String({ minLength: 16, maxLength: 1024, description: "base64url; in clientDataJson." }),
  attestation: object({
    credentialId: Type.String({ minLength: 1, maxLength: 1024 }),
    clientDataJson: Type.String({ minLength: 1, maxLength: 8192 }),
    attestationObject: Type.String({ minLength: 1, maxLength: 65536 }),
    transports: Type.Optional(
      Type.Array(StringEnum(["usb", "nfc", "ble", "internal", "hybrid"]), { maxItems: 5 }),
    ),
  }),
});
export type EnrollPasskeyBody = Static<typeof EnrollPasskeyBody>;

/** The customer-level SCA passkey factor (one per customer). */
export const ScaPasskey = Type.Object({
  id: Type.String({ description: "`AuthMethod:<uuid>`" }),
  customerId: Type.String(),
  nickname: Type.String(),
  credentialId: Type.String(),
  createdAt: DateTime(),
});
export type ScaPasskey = Static<typeof ScaPasskey>;

export const PasskeyParams = Type.Object({ passkeyId: Type.String() });

/** `/trust` and `/untrust` take no fields (an empty body, or none). */
export const EmptyBody = object({});

/**
 * The hosted API's `BeneficiaryTrustStart` (`/trust`, `/untrust`): the challenge that `/trust/confirm` or
 * `/untrust/confirm` answers; absent when nothing is to change (`/trust` of a trusted account).
 */
export const BeneficiaryTrustStart = Type.Object({ scaChallenge: Type.Optional(ScaChallenge) });
export type BeneficiaryTrustStart = Static<typeof BeneficiaryTrustStart>;

const nullable = <T extends Parameters<typeof Type.Optional>[0]>(schema: T) =>
  Type.Optional(Type.Union([schema, Type.Null()]));

/**
 * The hosted API's `BeneficiaryTrustConfirmRequest`: `code` (OTP challenge) or `passkeyAssertion` with
 * `origin` (PASSKEY challenge); `challengeId` names the challenge, else the account's open one is answered.
 */
export const BeneficiaryTrustConfirmRequest = object({
  challengeId: nullable(Type.String({ minLength: 1, maxLength: 100, description: "`Request:<uuid>`" })),
  code: nullable(Code),
  passkeyAssertion: nullable(PasskeyAssertion),
  origin: nullable(Type.String({ minLength: 1, maxLength: 2048 })),
});
export type BeneficiaryTrustConfirmRequest = Static<typeof BeneficiaryTrustConfirmRequest>;

/** The hosted API's `BeneficiaryTrustConfirm`: whether the account is now a trusted beneficiary. */
export const BeneficiaryTrustConfirm = Type.Object({ trusted: Type.Boolean() });
export type BeneficiaryTrustConfirm = Static<typeof BeneficiaryTrustConfirm>;
