import { type Static, Type } from "typebox";
import { DateTime, StringEnum } from "../core/http/schemas.js";
import { ScaChallenge, ScaFactor } from "../quotes/schemas.js";

const object = <T extends Parameters<typeof Type.Object>[0]>(properties: T) =>
  Type.Object(properties, { additionalProperties: false });
const Code = Type.String({ pattern: "^[0-9]{6}$", description: "The 6-digit code (sandbox: `000000`)." });

// The hosted `ScaFactor` and `ScaChallenge` live with the Quote that carries them (quotes import no sca).
export { ScaChallenge, ScaFactor, scaFactors } from "../quotes/schemas.js";

/**
 * The hosted `PasskeyAssertion` (`navigator.credentials.get`), base64url fields, as for wallet passkeys.
 * The hosted request bodies type `passkeyAssertion` as an open object, so extra members are ignored.
 */
export const PasskeyAssertion = Type.Object(
  {
    credentialId: Type.String({ minLength: 1, maxLength: 1024 }),
    clientDataJson: Type.String({ minLength: 1, maxLength: 8192 }),
    authenticatorData: Type.String({ minLength: 1, maxLength: 8192 }),
    signature: Type.String({ minLength: 1, maxLength: 2048 }),
    userHandle: Type.Optional(Type.String({ maxLength: 1024 })),
  },
  { additionalProperties: true },
);
export type PasskeyAssertion = Static<typeof PasskeyAssertion>;

const nullable = <T extends Parameters<typeof Type.Optional>[0]>(schema: T) =>
  Type.Optional(Type.Union([schema, Type.Null()]));
const Origin = Type.String({ minLength: 1, maxLength: 2048 });
const IpAddress = Type.String({ minLength: 1, maxLength: 64, description: "The end user's IP address." });

/** `?customerId=` of every `/sca/...` operation. */
export const CustomerQuery = Type.Object({ customerId: Type.String({ minLength: 1, maxLength: 100 }) });

/** The hosted API's `ScaFactorView`: `credentialId` and `name` for a passkey. */
export const ScaFactorView = Type.Object({
  factor: ScaFactor,
  credentialId: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
});
export type ScaFactorView = Static<typeof ScaFactorView>;
export const ScaFactorList = Type.Object({ factors: Type.Array(ScaFactorView) });
export type ScaFactorList = Static<typeof ScaFactorList>;

/** The hosted API's `ScaFactorEnrollRequestOneOf` (`TotpFactorEnrollRequest` | `PasskeyFactorEnrollRequest`). */
export const ScaFactorEnrollRequest = object({ type: StringEnum(["TOTP", "PASSKEY"]) });
export type ScaFactorEnrollRequest = Static<typeof ScaFactorEnrollRequest>;

/** The hosted API's `PasskeyEnrollmentStart`: `options` go to `navigator.credentials.create`. */
export const PasskeyEnrollmentStart = Type.Object({
  type: Type.Literal("PASSKEY"),
  options: Type.Record(Type.String(), Type.Unknown()),
  allowedOrigins: Type.Array(Type.String()),
  relyingPartyId: Type.String(),
});
export type PasskeyEnrollmentStart = Static<typeof PasskeyEnrollmentStart>;

/** The hosted API's `TotpEnrollmentStart`: `totpUri` (or `secretBase32Encoded`) goes to the authenticator app. */
export const TotpEnrollmentStart = Type.Object({
  type: Type.Literal("TOTP"),
  secret: Type.String({ description: "The 160-bit secret, hex; send it back with /sca/factors/confirm." }),
  secretBase32Encoded: Type.String({ description: "The same secret, RFC 4648 base32 (no padding)." }),
  totpUri: Type.String({ description: "otpauth://totp/… (SHA1, 6 digits, 30 s)." }),
});
export type TotpEnrollmentStart = Static<typeof TotpEnrollmentStart>;

/** The hosted API's `ScaFactorEnrollStartOneOf`. */
export const ScaFactorEnrollStart = Type.Union([TotpEnrollmentStart, PasskeyEnrollmentStart]);
export type ScaFactorEnrollStart = Static<typeof ScaFactorEnrollStart>;

/**
 * The hosted API's `ScaFactorConfirmRequestOneOf`: `{type: TOTP, secret, code}` or `{type: PASSKEY, origin,
 * credential}` (`credential` is the WebAuthn RegistrationResponseJSON).
 */
export const ScaFactorConfirmRequest = object({
  type: StringEnum(["TOTP", "PASSKEY"]),
  origin: Type.Optional(Origin),
  credential: Type.Optional(
    Type.Object({
      id: Type.String({ minLength: 1, maxLength: 1024 }),
      rawId: Type.String({ minLength: 1, maxLength: 1024 }),
      type: Type.Literal("public-key"),
      response: Type.Object({
        clientDataJSON: Type.String({ minLength: 1, maxLength: 8192 }),
        attestationObject: Type.String({ minLength: 1, maxLength: 65536 }),
        transports: Type.Optional(
          Type.Array(StringEnum(["usb", "nfc", "ble", "internal", "hybrid", "cable", "smart-card"]), {
            maxItems: 7,
          }),
        ),
      }),
      clientExtensionResults: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
      authenticatorAttachment: Type.Optional(Type.String({ maxLength: 32 })),
    }),
  ),
  secret: Type.Optional(Type.String({ maxLength: 256 })),
  code: Type.Optional(Type.String({ maxLength: 16 })),
});
export type ScaFactorConfirmRequest = Static<typeof ScaFactorConfirmRequest>;

/** The hosted API's `PasskeyEnrollmentConfirmResponse`. */
export const PasskeyEnrollmentConfirmResponse = Type.Object({
  type: Type.Literal("PASSKEY"),
  factor: ScaFactorView,
});
export type PasskeyEnrollmentConfirmResponse = Static<typeof PasskeyEnrollmentConfirmResponse>;

/** The hosted API's `TotpEnrollmentConfirmResponse`: recovery codes, shown once, each usable once as `code`. */
export const TotpEnrollmentConfirmResponse = Type.Object({
  type: Type.Literal("TOTP"),
  recoveryCodes: Type.Array(Type.String()),
});
export type TotpEnrollmentConfirmResponse = Static<typeof TotpEnrollmentConfirmResponse>;

/** The hosted API's `ScaFactorConfirmResponseOneOf`. */
export const ScaFactorConfirmResponse = Type.Union([
  TotpEnrollmentConfirmResponse,
  PasskeyEnrollmentConfirmResponse,
]);
export type ScaFactorConfirmResponse = Static<typeof ScaFactorConfirmResponse>;

export const CredentialParams = Type.Object({ credentialId: Type.String() });

/** The hosted API's `ScaLoginStartRequest`. */
export const ScaLoginStartRequest = object({ factor: ScaFactor });
export type ScaLoginStartRequest = Static<typeof ScaLoginStartRequest>;

/** The hosted API's `ScaLoginStart`: the challenge to answer with `/sca/login/complete`. */
export const ScaLoginStart = Type.Object({
  factor: ScaFactor,
  challengeId: nullable(Type.String()),
  expiresAt: nullable(DateTime()),
  passkeyOptions: nullable(Type.Record(Type.String(), Type.Unknown())),
  allowedOrigins: nullable(Type.Array(Type.String())),
  relyingPartyId: nullable(Type.String()),
});
export type ScaLoginStart = Static<typeof ScaLoginStart>;

/** The hosted API's `ScaLoginCompleteRequest`: `code`, or `passkeyAssertion` with `origin`. */
export const ScaLoginCompleteRequest = object({
  factor: ScaFactor,
  endUserIpAddress: IpAddress,
  challengeId: nullable(Type.String({ minLength: 1, maxLength: 100 })),
  code: nullable(
    Type.String({
      minLength: 1,
      maxLength: 32,
      description: "SMS_OTP: the 6-digit code (sandbox `000000`); TOTP: the app's code or a recovery code.",
    }),
  ),
  passkeyAssertion: nullable(PasskeyAssertion),
  origin: nullable(Origin),
});
export type ScaLoginCompleteRequest = Static<typeof ScaLoginCompleteRequest>;

/** The hosted API's `ScaLoginComplete`. */
export const ScaLoginComplete = Type.Object({
  status: Type.Literal("SUCCESS"),
  sessionExpiresAt: nullable(DateTime({ description: "180 days after login, on the platform's clock." })),
});
export type ScaLoginComplete = Static<typeof ScaLoginComplete>;

const securityEvents = ["RESET_PASSWORD_COMPLETED", "FAILED_LOGIN_ATTEMPT"] as const;
/** The hosted API's `RecordSecurityEventRequest`. */
export const RecordSecurityEventRequest = object({ eventType: StringEnum(securityEvents) });
export type RecordSecurityEventRequest = Static<typeof RecordSecurityEventRequest>;

/** The hosted API's `RecordSecurityEventResponse`. */
export const RecordSecurityEventResponse = Type.Object({
  eventType: StringEnum(securityEvents),
  suspended: Type.Boolean(),
  lockedUntil: Type.Union([DateTime(), Type.Null()]),
  failedAttempts: Type.Integer(),
  customerId: Type.String(),
});
export type RecordSecurityEventResponse = Static<typeof RecordSecurityEventResponse>;

/** The hosted API's `ScaAuthorization` (`/quotes/{quoteId}/authorize`): `code`, or `passkeyAssertion` with `origin`. */
export const ScaAuthorization = object({
  code: nullable(Code),
  passkeyAssertion: nullable(PasskeyAssertion),
  origin: nullable(Origin),
  endUserIpAddress: nullable(IpAddress),
});
export type ScaAuthorization = Static<typeof ScaAuthorization>;

export const QuoteParams = Type.Object({ quoteId: Type.String() });

/** The hosted API's `ContactVerificationConfirmRequest`: the code sent by `/verify-email` or `/verify-phone`. */
export const ContactVerificationConfirmBody = object({ code: Code });
export type ContactVerificationConfirmBody = Static<typeof ContactVerificationConfirmBody>;

export const CustomerParams = Type.Object({ customerId: Type.String() });

/** `/trust` and `/untrust` take no fields (an empty body, or none). */
export const EmptyBody = object({});

/**
 * The hosted API's `BeneficiaryTrustStart` (`/trust`, `/untrust`): the challenge that `/trust/confirm` or
 * `/untrust/confirm` answers; absent when nothing is to change (`/trust` of a trusted account).
 */
export const BeneficiaryTrustStart = Type.Object({ scaChallenge: Type.Optional(ScaChallenge) });
export type BeneficiaryTrustStart = Static<typeof BeneficiaryTrustStart>;

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

/** The hosted API's `TwoFactorResetStartRequest`. */
export const TwoFactorResetStartRequest = object({ factor: ScaFactor });
export type TwoFactorResetStartRequest = Static<typeof TwoFactorResetStartRequest>;

/**
 * The hosted API's `TwoFactorResetStart`: the person proves their identity on `verificationLink` (the
 * sandbox's hosted page); `livenessAccessToken` is the token that link carries.
 */
export const TwoFactorResetStart = Type.Object({
  resetId: Type.String({ description: "`Request:<uuid>`" }),
  livenessAccessToken: nullable(Type.String()),
  verificationLink: nullable(Type.String({ format: "uri" })),
  expiresAt: nullable(DateTime()),
});
export type TwoFactorResetStart = Static<typeof TwoFactorResetStart>;

/** The hosted API's `TwoFactorResetStatus`. */
export const TwoFactorResetStatus = Type.Object({
  status: StringEnum(["INITIATED", "PENDING_REVIEW", "LIVENESS_PASSED", "COMPLETED", "REJECTED", "EXPIRED"]),
  factor: ScaFactor,
  enrollmentStatus: Type.Optional(Type.Union([StringEnum(["PENDING", "COMPLETED"]), Type.Null()])),
  expiresAt: DateTime(),
  completedAt: Type.Optional(Type.Union([DateTime(), Type.Null()])),
});
export type TwoFactorResetStatus = Static<typeof TwoFactorResetStatus>;

/** The hosted API's `TwoFactorResetCompleteRequest` (optional body). */
export const TwoFactorResetCompleteRequest = object({
  mobile: Type.Optional(
    object({ countryCode: Type.String({ maxLength: 8 }), number: Type.String({ maxLength: 32 }) }),
  ),
});
export type TwoFactorResetCompleteRequest = Static<typeof TwoFactorResetCompleteRequest>;

export const ResetParams = Type.Object({ resetId: Type.String() });
export const ResetTokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });
