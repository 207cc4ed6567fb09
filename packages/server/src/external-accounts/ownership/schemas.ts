import { type Static, Type } from "typebox";
import { DateTime, StringEnum } from "../../core/http/schemas.js";

export const OwnershipChallengeRequest = Type.Object(
  { method: StringEnum(["WALLET_SIGNATURE", "LIVENESS"]) },
  { additionalProperties: false },
);

export const WalletSignatureChallenge = Type.Object({
  method: StringEnum(["WALLET_SIGNATURE"]),
  /** The exact message the wallet must sign, character for character. */
  messageToSign: Type.String(),
  expiresAt: DateTime(),
});

export const LivenessChallenge = Type.Object({
  method: StringEnum(["LIVENESS"]),
  /** The hosted verification page to present to the user. */
  verificationLink: Type.String({ format: "uri" }),
  /** For a provider SDK instead of the link; both give the same outcome. */
  token: Type.Optional(Type.String()),
  expiresAt: DateTime(),
});

export const OwnershipChallenge = Type.Union([WalletSignatureChallenge, LivenessChallenge]);
export type OwnershipChallenge = Static<typeof OwnershipChallenge>;

export const VerifyOwnershipBody = Type.Object(
  {
    signature: Type.String({ minLength: 1, maxLength: 1000 }),
    signatureScheme: Type.Optional(StringEnum(["bip137", "electrum"])),
  },
  { additionalProperties: false },
);
export type VerifyOwnershipBody = Static<typeof VerifyOwnershipBody>;
