import { verifyAuthenticationResponse } from "@simplewebauthn/server";
import { fromBase64url } from "./passkey-webauthn.js";

/** The fields of a WebAuthn assertion the signature check reads (base64url strings). */
export interface AssertionFields {
  credentialId: string;
  clientDataJson: string;
  authenticatorData: string;
  signature: string;
  userHandle?: string | undefined;
}

/**
 * The signature check of a `webauthn.get` assertion against a stored credential, with
 * @simplewebauthn/server. The callers have already checked type, challenge, origin, RP ID, user presence
 * and the counter, each with their own answer. Throws when the library refuses the assertion outright.
 */
export async function assertionSignatureVerifies(
  assertion: AssertionFields,
  expected: { challenge: string; origin: string; rpId: string; publicKey: string; counter: number },
): Promise<boolean> {
  const result = await verifyAuthenticationResponse({
    response: {
      id: assertion.credentialId,
      rawId: assertion.credentialId,
      type: "public-key",
      response: {
        clientDataJSON: assertion.clientDataJson,
        authenticatorData: assertion.authenticatorData,
        signature: assertion.signature,
        ...(assertion.userHandle ? { userHandle: assertion.userHandle } : {}),
      },
      clientExtensionResults: {},
    },
    expectedChallenge: expected.challenge,
    expectedOrigin: expected.origin,
    expectedRPID: expected.rpId,
    expectedType: "webauthn.get",
    credential: {
      id: assertion.credentialId,
      publicKey: fromBase64url(expected.publicKey) ?? new Uint8Array(),
      counter: expected.counter,
    },
    requireUserVerification: false,
  });
  return result.verified;
}
