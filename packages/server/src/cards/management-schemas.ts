import { type Static, Type } from "typebox";
import { DateTime, StringEnum } from "../core/http/schemas.js";
import { pinStatuses } from "./schemas.js";

/** A card PIN: 4 to 6 digits, sent as a string so leading zeros survive. */
const Pin = Type.String({ pattern: "^[0-9]{4,6}$", description: "4 to 6 digits." });

/** `POST /cards/{id}/pin`: sets or replaces the PIN (docs/decisions.md "Cards"). */
export const SetPinBody = Type.Object({ pin: Pin }, { additionalProperties: false });
export type SetPinBody = Static<typeof SetPinBody>;

/** `POST /sandbox/cards/{id}/simulate/pin_attempt`: a PIN entered at a terminal. */
export const PinAttemptBody = Type.Object({ pin: Pin }, { additionalProperties: false });
export type PinAttemptBody = Static<typeof PinAttemptBody>;

export const PinAttemptResult = Type.Object({
  correct: Type.Boolean(),
  pinStatus: StringEnum(pinStatuses),
  /** Wrong attempts left before the PIN is BLOCKED; 0 once it is. */
  remainingAttempts: Type.Integer({ minimum: 0 }),
});
export type PinAttemptResult = Static<typeof PinAttemptResult>;

/** `POST /cards/{id}/reveal` (conventions §6.2): a single-use link to a page showing PAN, expiry and CVV. */
export const RevealLink = Type.Object({
  panEmbedUrl: Type.String(),
  expiresAt: DateTime(),
});
export type RevealLink = Static<typeof RevealLink>;

export const RevealPageParams = Type.Object({ token: Type.String({ maxLength: 200 }) });

export const walletProviders = ["APPLE_PAY", "GOOGLE_PAY"] as const;

/** `POST /cards/{id}/tokenize`: push provisioning to a digital wallet (docs/decisions.md "Cards"). */
export const TokenizeCardBody = Type.Object(
  {
    walletProvider: StringEnum(walletProviders),
    deviceId: Type.String({ minLength: 1, maxLength: 128 }),
    /** The wallet's P-256 encryption key, uncompressed (65 bytes), hex. */
    walletPublicKey: Type.String({ pattern: "^04[0-9a-fA-F]{128}$" }),
  },
  { additionalProperties: false },
);
export type TokenizeCardBody = Static<typeof TokenizeCardBody>;

export const TokenizeCardResult = Type.Object({
  walletProvider: StringEnum(walletProviders),
  /** Opaque proof for the wallet that the issuer approved this provisioning (base64). */
  activationData: Type.String(),
  /** HPKE ciphertext (AES-GCM output ‖ tag), hex, of `{pan, expMonth, expYear, cardholderName?}`. */
  encryptedPassData: Type.String(),
  /** The HPKE encapsulated key, uncompressed P-256, hex. */
  ephemeralPublicKey: Type.String(),
});
export type TokenizeCardResult = Static<typeof TokenizeCardResult>;
