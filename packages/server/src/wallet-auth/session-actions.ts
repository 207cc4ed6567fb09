import type { Tx } from "../core/db/db.js";
import { type Deps, nowFor } from "../core/deps.js";
import { ApiError } from "../core/errors/api-error.js";
import type { Caller } from "../core/http/context.js";
import { parseId } from "../core/ids.js";
import { findWalletAccount } from "./account-store.js";
import { walletProcessingDelayMs } from "./auth-config.js";
import type { RefreshSessionBody } from "./credential-schemas.js";
import type { AuthSession } from "./schemas.js";
import { openSession } from "./sessions.js";
import { isFirstCall, type SignedHttp, settlingErrors, signedCall } from "./signed-calls.js";
import { type Performer, type SignedResponse, signedRetry } from "./signed-retry.js";
import {
  type AuthSessionRow,
  activeSessionsByKey,
  findActiveSession,
  findAuthMethod,
  findAuthMethodInAnyState,
  findSessionInAnyState,
  listActiveSessions,
  revokeSession,
} from "./store.js";
import { checkProvisioned, walletAccountOrThrow } from "./wallet-account.js";
import { toAuthSession } from "./wire.js";

/** `GET /auth/sessions?accountId=` (conventions §5.2): active sessions only, never key material. */
export async function listSessions(
  deps: Deps,
  caller: Caller,
  accountId: string,
): Promise<{ data: AuthSession[] }> {
  const id = parseId("InternalAccount", accountId);
  const account = id ? await findWalletAccount(deps.db, caller.platformId, id) : undefined;
  if (!account) return { data: [] };
  checkProvisioned(account);
  const now = nowFor(deps, caller);
  const sessions = await listActiveSessions(deps.db, account.id, now);
  const data: AuthSession[] = [];
  for (const session of sessions) {
    const method = await findAuthMethodInAnyState(deps.db, caller.platformId, session.auth_method_id);
    if (method) data.push(toAuthSession(session, method));
  }
  return { data };
}

const sessionNotFound = (rawId: string) =>
  new ApiError("SESSION_NOT_FOUND", { reason: `No session ${rawId}.` });

/**
 * The session a refresh or revoke names: active on the first call; in any state on the retry, whose
 * operation may already have ended it (the identical re-send then gets the operation's own answer).
 */
async function sessionOf(
  tx: Tx,
  caller: Caller,
  rawId: string,
  http: SignedHttp,
  now: Date,
): Promise<AuthSessionRow> {
  const id = parseId("Session", rawId);
  const session = id
    ? isFirstCall(http)
      ? await findActiveSession(tx, caller.platformId, id, now)
      : await findSessionInAnyState(tx, caller.platformId, id)
    : undefined;
  if (!session) throw sessionNotFound(rawId);
  await walletAccountOrThrow(tx, caller, session.account_id);
  return session;
}

/**
 * `POST /auth/sessions/{id}/refresh` (conventions §5.2): signed by the session being refreshed; `201` a
 * new session whose key is `clientPublicKey`, and the old one is revoked.
 */
export async function refreshSession(
  deps: Deps,
  caller: Caller,
  rawId: string,
  body: RefreshSessionBody,
  http: SignedHttp,
): Promise<SignedResponse> {
  const now = nowFor(deps, caller);
  return deps.db.transaction(async (tx) => {
    const session = await sessionOf(tx, caller, rawId, http, now);
    return signedRetry(
      tx,
      deps,
      signedCall(caller, http, {
        accountId: session.account_id,
        action: "REFRESH_SESSION",
        body,
        now,
        context: { sessionId: session.id },
        allowedSigner: async (publicKey) =>
          publicKey === session.public_key &&
          (await findActiveSession(tx, caller.platformId, session.id, now)) !== undefined,
        processingDelayMs: await walletProcessingDelayMs(tx, caller.platformId),
      }),
    );
  });
}

/** The session an operation ends: still active, and its credential live. */
async function endingSession(tx: Tx, platformId: string, sessionId: string, now: Date) {
  const session = await findSessionInAnyState(tx, platformId, sessionId, true);
  if (!session || session.revoked_at !== null || session.expires_at.getTime() <= now.getTime())
    throw sessionNotFound(sessionId);
  const method = await findAuthMethod(tx, platformId, session.auth_method_id);
  if (!method) throw sessionNotFound(sessionId);
  return { session, method };
}

/** `REFRESH_SESSION`: revokes the session and opens its successor for `clientPublicKey`. */
export const performRefreshSession: Performer = settlingErrors(async (tx, _deps, request, _signer, now) => {
  const { session, method } = await endingSession(
    tx,
    request.platform_id,
    String(request.context.sessionId),
    now,
  );
  const body = request.context.body as RefreshSessionBody;
  await revokeSession(tx, session.id, now);
  const renewed = await openSession(tx, method, body.clientPublicKey, now);
  return { status: 201, body: toAuthSession(renewed, method) };
});

/**
 * `DELETE /auth/sessions/{id}` (conventions §5.2): any active session of the account may sign, this one
 * included; `204`.
 */
export async function revokeSessionCall(
  deps: Deps,
  caller: Caller,
  rawId: string,
  http: SignedHttp,
): Promise<SignedResponse> {
  const now = nowFor(deps, caller);
  return deps.db.transaction(async (tx) => {
    const session = await sessionOf(tx, caller, rawId, http, now);
    const method = await findAuthMethodInAnyState(tx, caller.platformId, session.auth_method_id);
    return signedRetry(
      tx,
      deps,
      signedCall(caller, http, {
        accountId: session.account_id,
        action: "REVOKE_SESSION",
        ...(method ? { type: method.type } : {}),
        body: undefined,
        now,
        context: { sessionId: session.id },
        allowedSigner: async (publicKey) =>
          (await activeSessionsByKey(tx, [session.account_id], publicKey, now)).length > 0,
        processingDelayMs: await walletProcessingDelayMs(tx, caller.platformId),
      }),
    );
  });
}

/** `REVOKE_SESSION`: ends the session. */
export const performRevokeSession: Performer = settlingErrors(async (tx, _deps, request, _signer, now) => {
  const { session } = await endingSession(tx, request.platform_id, String(request.context.sessionId), now);
  await revokeSession(tx, session.id, now);
  return { status: 204, body: null };
});
