import { EXAMPLE_IP, exampleIds, exampleKeys, SANDBOX_OTP } from "./operation-examples-ids.js";

/**
 * Request body examples of strong customer authentication and embedded wallet authentication. Values a
 * client computes (HPKE bundles, WebAuthn assertions, signatures) show their shape only: "Try it out"
 * cannot produce them, the SDK's wallet helpers do.
 */

/** An HPKE bundle (conventions §5.5): the encapsulated key and the ciphertext of `{"otp_code", "public_key"}`. */
const encryptedOtpBundle = JSON.stringify({
  encappedPublic: exampleKeys.uncompressed,
  ciphertext: "6c1f3a9be2d04c7a8e51b2f0d9c3a7e4b18f62d05a9e3c7b41d8f0a2e6b93c5d7f10a4e8b2c6d9f3",
});

export const authExamples: Record<string, unknown> = {
  "POST /sca/factors/reset": { factor: "TOTP" },
  "POST /sca/factors/reset/{resetId}/complete": { mobile: { countryCode: "+1", number: "4155550123" } },
  "POST /sca/factors": { type: "TOTP" },
  "POST /sca/factors/confirm": {
    type: "TOTP",
    secret: "3132333435363738393031323334353637383930",
    code: "287082",
  },
  "POST /sca/login/start": { factor: "SMS_OTP" },
  "POST /sca/login/complete": {
    factor: "SMS_OTP",
    endUserIpAddress: EXAMPLE_IP,
    challengeId: exampleIds.scaChallenge,
    code: SANDBOX_OTP,
  },
  "POST /sca/record-event": { eventType: "FAILED_LOGIN_ATTEMPT" },
  "POST /quotes/{quoteId}/authorize": { code: SANDBOX_OTP, endUserIpAddress: EXAMPLE_IP },
  "POST /auth/credentials": { type: "EMAIL_OTP", accountId: exampleIds.embeddedWallet },
  "POST /auth/credentials/{id}/challenge": { clientPublicKey: exampleKeys.compressed },
  "POST /auth/credentials/{id}/verify": { type: "EMAIL_OTP", encryptedOtpBundle },
  "POST /auth/sessions/{id}/refresh": { clientPublicKey: exampleKeys.compressed },
  "POST /internal-accounts/{accountId}/export": { clientPublicKey: exampleKeys.uncompressed },
  "POST /auth/delegated-keys": {
    cardId: exampleIds.card,
    internalAccountId: exampleIds.embeddedWallet,
    nickname: "Checkout terminal",
  },
};
