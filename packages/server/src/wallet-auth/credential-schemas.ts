import { type Static, Type } from "typebox";
import { DateTime, DiscriminatedUnion, StringEnum } from "../core/http/schemas.js";
import { AuthMethod } from "./schemas.js";

// Request and response shapes of the credential and session endpoints (conventions §5.1, §5.2).

const closed = { additionalProperties: false } as const;
const base64url = (description: string) =>
  Type.String({ minLength: 1, maxLength: 65536, pattern: "^[A-Za-z0-9_-]+={0,2}$", description });
/** `^(0[23]…{64}|04…{128})$` (conventions §5.2): a P-256 public key in hex, either form. */
export const ClientPublicKey = Type.String({
  pattern: "^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$",
  description: "Client-generated P-256 public key, hex (compressed 02/03… or uncompressed 04…).",
});
export const CompressedPublicKey = Type.String({
  pattern: "^0[23][0-9a-fA-F]{64}$",
  description: "Client-generated P-256 public key, compressed hex (02/03…).",
});
export const InternalAccountId = Type.String({
  pattern: "^InternalAccount:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$",
});
const AccountIdField = Type.String({ minLength: 1, maxLength: 100 });

export const CreateCredentialBody = DiscriminatedUnion("type", [
  Type.Object({ type: StringEnum(["EMAIL_OTP"]), accountId: AccountIdField }, closed),
  Type.Object({ type: StringEnum(["SMS_OTP"]), accountId: AccountIdField }, closed),
  Type.Object(
    {
      type: StringEnum(["OAUTH"]),
      accountId: AccountIdField,
      oidcToken: Type.String({ minLength: 1, maxLength: 16384 }),
    },
    closed,
  ),
  Type.Object(
    {
      type: StringEnum(["PASSKEY"]),
      accountId: AccountIdField,
      // conventions §5.1: 1–100 characters from letters, digits, space and . _ - ' ( ), trimmed.
      nickname: Type.String({ minLength: 1, maxLength: 100, pattern: "^[\\p{L}\\p{N} ._'()-]+$" }),
      challenge: base64url("The WebAuthn registration challenge the integrator backend issued."),
      attestation: Type.Object(
        {
          credentialId: base64url("WebAuthn credential id."),
          clientDataJson: base64url("clientDataJSON bytes."),
          attestationObject: base64url("attestationObject bytes."),
          transports: Type.Optional(
            Type.Array(StringEnum(["usb", "nfc", "ble", "internal", "hybrid"]), { maxItems: 5 }),
          ),
        },
        closed,
      ),
    },
    closed,
  ),
]);
export type CreateCredentialBody = Static<typeof CreateCredentialBody>;

/** `POST /auth/credentials/{id}/challenge`: optional body; `clientPublicKey` is required for PASSKEY only. */
export const ChallengeBody = Type.Object({ clientPublicKey: Type.Optional(ClientPublicKey) }, closed);
export type ChallengeBody = Static<typeof ChallengeBody>;

const otpVerify = (type: "EMAIL_OTP" | "SMS_OTP") =>
  Type.Object(
    {
      type: StringEnum([type]),
      encryptedOtpBundle: Type.String({
        minLength: 1,
        maxLength: 8192,
        description: 'JSON text {"encappedPublic","ciphertext"} (conventions §5.4).',
      }),
    },
    closed,
  );

export const VerifyCredentialBody = DiscriminatedUnion("type", [
  otpVerify("EMAIL_OTP"),
  otpVerify("SMS_OTP"),
  Type.Object(
    {
      type: StringEnum(["OAUTH"]),
      oidcToken: Type.String({ minLength: 1, maxLength: 16384 }),
      clientPublicKey: ClientPublicKey,
    },
    closed,
  ),
  Type.Object(
    {
      type: StringEnum(["PASSKEY"]),
      assertion: Type.Object(
        {
          credentialId: base64url("WebAuthn credential id."),
          clientDataJson: base64url("clientDataJSON bytes."),
          authenticatorData: base64url("authenticatorData bytes."),
          signature: base64url("Assertion signature."),
          userHandle: Type.Optional(Type.String({ maxLength: 1024, pattern: "^[A-Za-z0-9_-]*={0,2}$" })),
        },
        closed,
      ),
    },
    closed,
  ),
]);
export type VerifyCredentialBody = Static<typeof VerifyCredentialBody>;

/** PasskeyAuthChallenge (conventions §5.1): the AuthMethod fields plus the challenge. */
export const PasskeyAuthChallenge = Type.Object({
  ...AuthMethod.properties,
  challenge: Type.String(),
  requestId: Type.String(),
  expiresAt: DateTime(),
});
export type PasskeyAuthChallenge = Static<typeof PasskeyAuthChallenge>;

export const AccountQuery = Type.Object({ accountId: InternalAccountId }, closed);
export const AuthMethodParams = Type.Object({ id: Type.String() });
export const SessionParams = Type.Object({ id: Type.String() });

export const RefreshSessionBody = Type.Object({ clientPublicKey: CompressedPublicKey }, closed);
export type RefreshSessionBody = Static<typeof RefreshSessionBody>;
