import type { Tx } from "../core/db/db.js";
import type { Deps } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import type { AuthSession } from "./schemas.js";
import type { AuthMethodRow } from "./store.js";

export interface PasskeyRegistration {
  nickname: string;
  challenge: string;
  attestation: {
    credentialId: string;
    clientDataJson: string;
    attestationObject: string;
    transports?: string[];
  };
}

/** Checks a registration (conventions §5.6) and returns what the AuthMethod keeps. */
export async function passkeyFromAttestation(
  _deps: Deps,
  _caller: Caller,
  _registration: PasskeyRegistration,
): Promise<{ credentialId: string; publicKey: string; counter: number; transports: string[] | null }> {
  throw new ApiError("NOT_IMPLEMENTED", { reason: "PASSKEY credentials are not built yet." });
}

/** `POST /auth/credentials/{id}/challenge` for PASSKEY: a single-use challenge bound to clientPublicKey. */
export async function passkeyChallenge(
  _tx: Tx,
  _deps: Deps,
  _caller: Caller,
  _method: AuthMethodRow,
  _clientPublicKey: string,
  _now: Date,
): Promise<Record<string, unknown>> {
  throw new ApiError("NOT_IMPLEMENTED", { reason: "PASSKEY challenges are not built yet." });
}

/** `POST /auth/credentials/{id}/verify` for PASSKEY: the WebAuthn assertion over the challenge → session. */
export async function verifyPasskey(
  _tx: Tx,
  _deps: Deps,
  _caller: Caller,
  _method: AuthMethodRow,
  _body: { assertion: Record<string, unknown> },
  _requestIdHeader: string | undefined,
  _now: Date,
): Promise<AuthSession> {
  throw new ApiError("NOT_IMPLEMENTED", { reason: "PASSKEY verification is not built yet." });
}
