import type { Tx } from "../core/db/db.js";
import type { Deps } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import type { AuthSession } from "./schemas.js";
import type { AuthMethodRow } from "./store.js";

/** The identity an OIDC token proves at registration (conventions §5.7); 400 malformed, 401 failed claim. */
export async function oauthIdentity(
  _deps: Deps,
  _caller: Caller,
  _oidcToken: string,
  _now: Date,
): Promise<{ nickname: string; issuer: string; audience: string; subject: string }> {
  throw new ApiError("NOT_IMPLEMENTED", { reason: "OAUTH credentials are not built yet." });
}

/** `POST /auth/credentials/{id}/verify` for OAUTH: a fresh token whose nonce binds clientPublicKey → session. */
export async function verifyOauth(
  _tx: Tx,
  _deps: Deps,
  _caller: Caller,
  _method: AuthMethodRow,
  _body: { oidcToken: string; clientPublicKey: string },
  _now: Date,
): Promise<AuthSession> {
  throw new ApiError("NOT_IMPLEMENTED", { reason: "OAUTH verification is not built yet." });
}
