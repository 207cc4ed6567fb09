import type { Tx } from "../core/db/db.js";
import type { Caller } from "../core/http/context.js";
import { assertionSignatureVerifies } from "../wallet-auth/assertion-signature.js";
import { loadWalletAuthConfig } from "../wallet-auth/auth-config.js";
import { relyingParty } from "../wallet-auth/passkey-relying-party.js";
import {
  decodeAuthenticatorData,
  decodeClientData,
  fromBase64url,
  namesRpId,
  toBase64url,
} from "../wallet-auth/passkey-webauthn.js";
import { findLivePasskey, updatePasskeyCounter } from "./passkey-store.js";
import type { PasskeyAssertion } from "./schemas.js";
import type { ChallengeRow } from "./store.js";

// Apart from passkeys.ts: enrolment there requires a live SCA session (sessions.ts), and an SCA login in
// sessions.ts is answered by this check, so neither of those two files imports the other.

/**
 * Whether a WebAuthn assertion answers a PASSKEY challenge: the customer's live passkey, `webauthn.get`
 * over the issued challenge, an allowed origin, the RP ID, user presence, an increasing counter and a
 * valid signature, and the `origin` the body names (when given). Any failed check is a wrong answer (counted towards the lock), never an exception.
 */
export async function verifyPasskeyAssertion(
  tx: Tx,
  caller: Caller,
  challenge: ChallengeRow,
  assertion: PasskeyAssertion,
  origin?: string | null,
): Promise<boolean> {
  const passkey = await findLivePasskey(tx, challenge.customer_id);
  const clientData = decodeClientData(assertion.clientDataJson);
  const authBytes = fromBase64url(assertion.authenticatorData);
  const authData = authBytes && decodeAuthenticatorData(authBytes);
  if (!passkey || !clientData || !authData || challenge.webauthn_challenge === null) return false;
  if (assertion.credentialId !== passkey.credential_id || clientData.type !== "webauthn.get") return false;
  // The hosted API's `origin` names where the ceremony ran: it must be the one the browser signed.
  if (origin != null && origin !== clientData.origin) return false;
  const expectedChallenge = toBase64url(challenge.webauthn_challenge);
  const rp = relyingParty(caller.environment, await loadWalletAuthConfig(tx, caller.platformId));
  if (!rp?.allowsOrigin(clientData.origin) || !namesRpId(authData, rp.rpId) || !authData.flags.up)
    return false;
  const stored = Number(passkey.counter);
  if ((authData.counter > 0 || stored > 0) && authData.counter <= stored) return false;
  try {
    const verified = await assertionSignatureVerifies(assertion, {
      challenge: expectedChallenge,
      origin: clientData.origin,
      rpId: rp.rpId,
      publicKey: passkey.public_key,
      counter: stored,
    });
    if (!verified) return false;
  } catch {
    return false;
  }
  await updatePasskeyCounter(tx, passkey.id, authData.counter);
  return true;
}
