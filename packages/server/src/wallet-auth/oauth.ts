import type { Executor, Tx } from "../core/db/db.js";
import type { Deps } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import { sha256Hex } from "../core/hash.js";
import type { Caller } from "../core/http/context.js";
import { loadWalletAuthConfig } from "./auth-config.js";
import { checkClientPublicKey } from "./client-public-key.js";
import { claimOidcToken } from "./oauth-tokens.js";
import { checkOidcToken, oidcRefused } from "./oidc.js";
import type { AuthSession } from "./schemas.js";
import { openSealedSession } from "./sessions.js";
import type { AuthMethodRow } from "./store.js";

/**
 * `iat` and `exp` are the provider's clock, which knows nothing of a sandbox platform's clock offset:
 * they are compared with the service clock, so advancing a sandbox clock does not break OAUTH sign-in.
 */
const tokenClock = (deps: Pick<Deps, "clock">) => deps.clock.now();

/**
 * The identity an OIDC token proves at registration (conventions §5.7); 400 malformed, 401 failed claim.
 * No nonce check at registration. `nickname` is the `email` claim, else `sub`. It reads the platform's
 * configuration through `db` and may fetch the provider's key set: call it before opening a transaction,
 * or pass that transaction's `tx`.
 */
export async function oauthIdentity(
  deps: Deps,
  caller: Caller,
  oidcToken: string,
  _now: Date,
  db: Executor = deps.db,
): Promise<{ nickname: string; issuer: string; audience: string; subject: string }> {
  const config = await loadWalletAuthConfig(db, caller.platformId);
  const claims = await checkOidcToken(oidcToken, {
    environment: caller.environment,
    config,
    now: tokenClock(deps),
  });
  return {
    nickname: claims.email ?? claims.subject,
    issuer: claims.issuer,
    audience: claims.audience,
    subject: claims.subject,
  };
}

/**
 * `POST /auth/credentials/{id}/verify` for OAUTH: a fresh token whose nonce binds clientPublicKey → session.
 * Checks the token (conventions §5.7), then that `iss`, `aud` and `sub` are those recorded at registration,
 * that `nonce` is the SHA-256 hex of `clientPublicKey` exactly as sent, and that the token never opened a
 * session before; the session key is sealed to `clientPublicKey`.
 */
export async function verifyOauth(
  tx: Tx,
  deps: Deps,
  caller: Caller,
  method: AuthMethodRow,
  body: { oidcToken: string; clientPublicKey: string },
  now: Date,
): Promise<AuthSession> {
  const clientPublicKey = checkClientPublicKey(body.clientPublicKey);
  if (method.type !== "OAUTH")
    throw new ApiError("INVALID_INPUT", { reason: `The credential is ${method.type}, not OAUTH.` });
  const config = await loadWalletAuthConfig(tx, caller.platformId);
  const claims = await checkOidcToken(body.oidcToken, {
    environment: caller.environment,
    config,
    now: tokenClock(deps),
  });
  if (claims.issuer !== method.oidc_issuer) throw oidcRefused("iss does not match the credential's issuer");
  if (method.oidc_audience === null || !claims.audiences.includes(method.oidc_audience))
    throw oidcRefused("aud does not include the credential's audience");
  if (claims.subject !== method.oidc_subject)
    throw oidcRefused("sub does not match the credential's subject");
  if (claims.nonce !== sha256Hex(clientPublicKey))
    throw oidcRefused("nonce is not the SHA-256 hex of clientPublicKey");
  const fresh = await claimOidcToken(tx, {
    platformId: method.platform_id,
    accountId: method.account_id,
    authMethodId: method.id,
    token: body.oidcToken,
    // Past iat + 60 s the token fails the iat rule anyway; the row is kept no longer than it could pass.
    expiresAt: new Date(Math.min(claims.expiresAt * 1000, now.getTime() + 2 * 60 * 1000)),
    now,
  });
  if (!fresh) throw oidcRefused("the token was already used; every verify needs a fresh token");
  return openSealedSession(tx, method, clientPublicKey, now);
}
