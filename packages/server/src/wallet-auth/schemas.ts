import { type Static, Type } from "typebox";
import { DateTime, StringEnum } from "../core/http/schemas.js";

export const credentialTypes = ["PASSKEY", "OAUTH", "EMAIL_OTP", "SMS_OTP"] as const;

/** AuthMethod (conventions §5.1); credential responses may add `otpEncryptionTargetBundle`. */
export const AuthMethod = Type.Object({
  id: Type.String(),
  accountId: Type.String(),
  type: StringEnum(credentialTypes),
  nickname: Type.String(),
  credentialId: Type.Optional(Type.String()),
  otpEncryptionTargetBundle: Type.Optional(Type.String()),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});
export type AuthMethod = Static<typeof AuthMethod>;

/** The body of every `202` of a signed-retry endpoint (conventions §5.1). */
export const SignedRetryChallenge = Type.Object({
  type: Type.Optional(StringEnum(credentialTypes)),
  payloadToSign: Type.String(),
  requestId: Type.String(),
  expiresAt: DateTime(),
});

/** A `200` meaning the provider is still settling: re-send the identical signed request. */
export const WalletOperationProcessing = Type.Object({
  status: StringEnum(["PROCESSING"]),
  message: Type.String(),
});

/** AuthSession (conventions §5.1): OAUTH and PASSKEY verifies add `encryptedSessionSigningKey`. */
export const AuthSession = Type.Object({
  id: Type.String(),
  accountId: Type.String(),
  type: StringEnum(credentialTypes),
  nickname: Type.String(),
  encryptedSessionSigningKey: Type.Optional(Type.String()),
  createdAt: DateTime(),
  updatedAt: DateTime(),
  expiresAt: DateTime(),
});
export type AuthSession = Static<typeof AuthSession>;

/** Signed-retry headers, read on every signed endpoint (validated by the mechanism, not the schema). */
export const SignedRetryHeaders = Type.Object({
  "service-wallet-signature": Type.Optional(Type.String()),
  "request-id": Type.Optional(Type.String()),
});
